import { VARIABLE_NAME_INVALID, variableLimits } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { findVariableProblems, formatValueSize, previewValue } from './variable-display.ts';

describe('variable display', () => {
  it('checks the name rule and the 64 KB of UTF-8 before sending, each at its field', () => {
    const valid = { name: 'kill_switch', value: 'off', requiresSession: true };
    expect(findVariableProblems(valid)).toEqual({});
    expect(findVariableProblems({ ...valid, name: 'kill switch' })).toEqual({
      name: VARIABLE_NAME_INVALID,
    });
    expect(findVariableProblems({ ...valid, name: '' })).toEqual({ name: VARIABLE_NAME_INVALID });
    // Surrounding spaces are not the owner's intent: trimmed, the name is fine.
    expect(findVariableProblems({ ...valid, name: ' app.mirror-2 ' })).toEqual({});
    const limit = variableLimits.applicationValueBytes;
    expect(findVariableProblems({ ...valid, value: 'é'.repeat(limit / 2) })).toEqual({});
    // Both at once.
    expect(
      findVariableProblems({
        name: '',
        value: `${'é'.repeat(limit / 2)}x`,
        requiresSession: false,
      }),
    ).toEqual({
      name: VARIABLE_NAME_INVALID,
      value: 'value must be at most 64 KB (UTF-8)',
    });
  });

  it('tells how much of the limit a value uses, in UTF-8 bytes', () => {
    expect(formatValueSize('', 16 * 1024)).toBe('0 B of 16 KB');
    expect(formatValueSize('€', 16 * 1024)).toBe('3 B of 16 KB');
    expect(formatValueSize('x'.repeat(1536), 64 * 1024)).toBe('1.5 KB of 64 KB');
  });

  it('previews the first line, marking what is cut', () => {
    expect(previewValue('off')).toBe('off');
    expect(previewValue('first\nsecond')).toBe('first…');
    expect(previewValue('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });
});
