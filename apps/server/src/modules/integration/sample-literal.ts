/**
 * A double-quoted string literal that means `value` in C#, Python, JavaScript and C++ alike.
 * Only the backslash, the double quote and control characters are escaped (their escapes
 * are spelled the same in all four); every other character is written as itself, since all
 * four compilers read UTF-8 source. Rendered values are owner-controlled (the application's
 * version), so nothing they hold may end the literal early and become code.
 */
export function toSampleLiteral(value: string): string {
  let literal = '"';
  for (const character of value) {
    const codePoint = character.codePointAt(0)!;
    if (character === '\\' || character === '"') literal += `\\${character}`;
    else if (character === '\n') literal += '\\n';
    else if (character === '\r') literal += '\\r';
    else if (character === '\t') literal += '\\t';
    else if (codePoint < 0x20 || codePoint === 0x7f || codePoint === 0x2028 || codePoint === 0x2029)
      literal += `\\u${codePoint.toString(16).padStart(4, '0')}`;
    else literal += character;
  }
  return `${literal}"`;
}
