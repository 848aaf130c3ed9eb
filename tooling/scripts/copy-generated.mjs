#!/usr/bin/env node
// tsc does not emit the Peggy-generated parsers (plain .js beside a .d.ts), so the build copies
// src/generated/ into dist/generated/ as it is.
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const from = join(process.cwd(), 'src', 'generated');
if (existsSync(from)) cpSync(from, join(process.cwd(), 'dist', 'generated'), { recursive: true });
