import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  createJsonBodyReader,
  JSON_BODY_MAX_DEPTH,
  JSON_BODY_TOO_DEEP,
  nestsDeeperThan,
} from './accept-empty-json-bodies.ts';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('the depth limit of JSON bodies', () => {
  it('counts arrays and objects inside each other, not side by side', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
    expect(nestsDeeperThan(`[${Array(1_000).fill('[1]').join(',')}]`, 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: nested(100) }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: `"\\${nested(100, '{', '}')}` }), 1)).toBe(false);
    expect(nestsDeeperThan('{"a\\\\":[[1]]}', 2)).toBe(true);
  });

  it('refuses a body past the limit before parsing it, and reads one at the limit', () => {
    const read = createJsonBodyReader(Fastify());
    const atLimit = nested(JSON_BODY_MAX_DEPTH);
    expect(read(Buffer.from(atLimit))).toEqual(JSON.parse(atLimit));
    expect(() => read(Buffer.from(nested(JSON_BODY_MAX_DEPTH + 1)))).toThrow(JSON_BODY_TOO_DEEP);
    // A million levels is refused in one pass, with the same message.
    expect(() => read(Buffer.from(nested(1_000_000, '{"a":', '}')))).toThrow(JSON_BODY_TOO_DEEP);
  });
});
