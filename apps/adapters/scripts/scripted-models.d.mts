// Types of scripted-models.mjs, for the TypeScript test that imports it.
import type { Model } from '@openai/agents';
import type { MockLanguageModelV3 } from 'ai/test';

type DoGenerate = NonNullable<
  NonNullable<ConstructorParameters<typeof MockLanguageModelV3>[0]>['doGenerate']
>;

export function scriptedAgentsModel(Usage: new () => unknown, operation: object): Model;
export function scriptedAnthropicFetch(input: object): typeof globalThis.fetch;
export function scriptedVercelGenerate(patch: string): DoGenerate;
