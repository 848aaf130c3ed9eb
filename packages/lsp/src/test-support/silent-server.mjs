// A server that reads everything it is sent and never answers.
process.stdin.resume();
