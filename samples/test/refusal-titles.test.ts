import { readFileSync } from 'node:fs';
import { clientRefusalTitles } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';

/**
 * Every sample titles a refusal by its code as the contract's table says (the console's /docs
 * lists the same table), so the four cannot drift from it or from each other. The live tests
 * show a few of these dialogs for real; this checks every code, in the committed sources.
 */
const titles = clientRefusalTitles;
const samples = {
  csharp: '../csharp/LatchkeyClient.cs',
  python: '../python/latchkey_client.py',
  nodejs: '../nodejs/latchkey-client.mjs',
  cpp: '../cpp/latchkey_client.cpp',
};

describe.each(Object.entries(samples))('%s sample refusal titles', (_language, path) => {
  const source = readFileSync(new URL(path, import.meta.url), 'utf8');

  it.each(Object.entries(titles))('titles %s as the contract says', (code, { title }) => {
    // The code as a string literal with its title in the literal right after it (in the
    // sample's table or switch; the code may also appear elsewhere, followed by other text).
    const literal = new RegExp(`["']${code}["'][^"']{0,40}["']([^"']+)["']`, 'g');
    const following = [...source.matchAll(literal)].map((match) => match[1]);
    expect(following).toContain(title);
  });
});
