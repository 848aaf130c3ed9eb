#!/usr/bin/env node
// Committed launcher: the bin links before the first build, and runs the bundled CLI.
import { main } from '../dist/bundle/patchsmith.mjs';

process.exitCode = await main(process.argv.slice(2));
