import { expect, it } from 'vitest';
import { MAX_LISTED_CANDIDATES } from './miss-error.js';
import { planEdits } from './plan-edits.js';
import { chunk, file, files, ROOT, script, update } from './test-support/script.js';

it('an AMBIGUOUS error lists at most MAX_LISTED_CANDIDATES candidates and says how many there are', () => {
  const places = MAX_LISTED_CANDIDATES * 3;
  const state = files({ f: file('}\n'.repeat(places)) });
  const result = planEdits(script(update('f', [chunk('-}\n+};')])), state, { root: ROOT });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  const [error] = result.errors;
  expect(error).toMatchObject({ code: 'AMBIGUOUS', path: 'f' });
  expect(error!.candidates).toHaveLength(MAX_LISTED_CANDIDATES);
  expect(error!.candidates!.slice(0, 3)).toEqual([1, 2, 3]);
  expect(error!.message).toContain(`${places} places`);
});
