#!/usr/bin/env node
// Committed launcher for the drop-in `apply_patch` alias; imports the built CLI.
import { applyPatchMain } from '../dist/apply-patch.js';

process.exitCode = await applyPatchMain(process.argv.slice(2));
