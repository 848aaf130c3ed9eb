#!/usr/bin/env node
// Committed launcher: the bin links before the first build, and runs the bundled CLI.
require('./launch.cjs').run('patchsmith', (cli, argv) => cli.main(argv));
