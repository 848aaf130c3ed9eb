#!/usr/bin/env node
// Committed launcher for the drop-in `apply_patch` alias; runs the bundled CLI.
// A patch applied (not `--help`) is the run whose compiled functions the code cache keeps.
require('./launch.cjs').run(
  'apply_patch',
  (cli, argv) => cli.applyPatchMain(argv),
  (argv, exitCode) => exitCode === 0 && argv[0] !== '--help' && argv[0] !== '-h',
);
