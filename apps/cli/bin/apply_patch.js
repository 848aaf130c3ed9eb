#!/usr/bin/env node
// Committed launcher for the drop-in `apply_patch` alias; runs the bundled CLI.
import { applyPatchMain } from '../dist/bundle/apply_patch.mjs';

process.exitCode = await applyPatchMain(process.argv.slice(2));
