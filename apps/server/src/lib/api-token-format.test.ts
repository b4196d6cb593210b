import { API_TOKEN_PATTERN, apiTokenLimits } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { apiTokenPrefix, generateApiToken, isWellFormedApiToken } from './api-token-format.ts';

describe('API token format', () => {
  it('makes lk_ tokens of the documented length whose checksum matches', () => {
    const token = generateApiToken();
    expect(token).toMatch(API_TOKEN_PATTERN);
    expect(token).toHaveLength(apiTokenLimits.tokenLength);
    expect(isWellFormedApiToken(token)).toBe(true);
    expect(apiTokenPrefix(token)).toBe(token.slice(0, 11));
  });

  it('draws every token afresh', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateApiToken));
    expect(tokens.size).toBe(1000);
  });

  it('refuses a token with one character changed, anywhere', () => {
    const token = generateApiToken();
    for (let position = 3; position < token.length; position += 1) {
      const replacement = token[position] === 'a' ? 'b' : 'a';
      const typo = token.slice(0, position) + replacement + token.slice(position + 1);
      expect(isWellFormedApiToken(typo), `position ${position}`).toBe(false);
    }
  });

  it('refuses other shapes: a client API key, a truncated token, other prefixes', () => {
    const token = generateApiToken();
    expect(isWellFormedApiToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedApiToken(`${token}A`)).toBe(false);
    expect(isWellFormedApiToken(`xk_${token.slice(3)}`)).toBe(false);
    expect(isWellFormedApiToken('lk_live_' + 'A'.repeat(33))).toBe(false);
    expect(isWellFormedApiToken('')).toBe(false);
  });
});
