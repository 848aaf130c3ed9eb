export interface Person {
  name: string;
  title?: string;
}

export function greet(person: Person): string {
    // indentation drifted from the rest of the file
    return 'Hello, ' + person.name + '!';
}

export function farewell(person: Person): string {
  return `Goodbye, ${person.name}.`;
}
