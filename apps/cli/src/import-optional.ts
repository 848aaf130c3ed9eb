/** Where bin/launch.cjs leaves an `import()` that works inside the code-cached bundle. */
const LAUNCHER_IMPORT = Symbol.for('patchsmith.import');

/**
 * `import(specifier)` for a package installed beside the CLI. The bins run the bundle through
 * `vm.Script` (for V8's code cache), where Node 20 refuses `import()` without
 * `--experimental-vm-modules`; the launcher's own `import` works, so the bundle borrows it.
 */
export function importOptional(specifier: string): Promise<unknown> {
  const launcherImport = (globalThis as Record<symbol, unknown>)[LAUNCHER_IMPORT];
  if (typeof launcherImport === 'function') return launcherImport(specifier) as Promise<unknown>;
  return import(specifier);
}
