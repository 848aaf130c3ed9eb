import { constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { decodeInput } from './decode-input.js';

describe('decodeInput', () => {
  it('decodes UTF-8 and names the line of the first invalid byte', () => {
    expect(decodeInput(new TextEncoder().encode('a\nb'))).toEqual({ ok: true, text: 'a\nb' });
    const bad = decodeInput(Uint8Array.from([0x61, 0x0a, 0x62, 0xff]));
    expect(bad).toMatchObject({ ok: false, line: 2 });
  });

  it('says a patch is too large, not that it is invalid UTF-8, when no string can hold it', () => {
    // Zero pages: allocating them costs no memory until they are touched, and the size is checked first.
    const huge = new Uint8Array(constants.MAX_STRING_LENGTH + 1);
    const decoded = decodeInput(huge);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.message).toContain('larger than');
      expect(decoded.message).not.toContain('UTF-8');
    }
  });
});
