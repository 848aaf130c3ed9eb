#!/usr/bin/env node
// Committed launcher: the bin links before the first build, and imports the built CLI.
import { main } from '../dist/patchsmith.js';

process.exitCode = await main(process.argv.slice(2));
