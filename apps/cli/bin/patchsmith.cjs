#!/usr/bin/env node
// Committed launcher: the bin links before the first build, and runs the bundled CLI.
// An edit applied or checked is the run whose compiled functions the code cache keeps.
const EDIT_COMMANDS = new Set(['apply', 'check']);
require('./launch.cjs').run(
  'patchsmith',
  (cli, argv) => cli.main(argv),
  (argv, exitCode) => exitCode === 0 && EDIT_COMMANDS.has(argv.find((a) => !a.startsWith('-'))),
);
