/**
 * JSON as PHP's `json_encode` writes it with no flags, which is what KeyAuth's clients were
 * written against: every character outside ASCII escaped as `\uXXXX` (lower-case hex, UTF-16
 * code units, so an emoji is a surrogate pair) and `/` as `\/`. The official C# client reads
 * the answer with the system's default code page, so a raw UTF-8 byte above 0x7F breaks it;
 * escaped, the bytes on the wire are ASCII alone. Everything else is JSON.stringify's output.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff/]/g, (character) =>
    character === '/' ? '\\/' : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
