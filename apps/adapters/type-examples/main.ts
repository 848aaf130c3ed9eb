// The main entry, in a project with no SDK installed.
import { type AdapterOptions, createPermissionGate, runApplyPatchOperation } from '@patchsmith/adapters';

export async function main(options: AdapterOptions) {
  const ask = createPermissionGate({ policy: { rules: [] } });
  const result = await runApplyPatchOperation({ type: 'delete_file', path: 'a.txt' }, { ...options, ask });
  const status: 'completed' | 'failed' = result.status;
  // @ts-expect-error: an operation has a type (this would pass if the function were `any`)
  await runApplyPatchOperation({ path: 'a.txt' });
  return status;
}
