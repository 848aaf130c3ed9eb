#!/usr/bin/env node
// Committed launcher for the drop-in `apply_patch` alias; runs the bundled CLI.
require('./launch.cjs').run('apply_patch', (cli, argv) => cli.applyPatchMain(argv));
