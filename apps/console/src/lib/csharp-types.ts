/**
 * Finds a top-level type declaration in C# source and returns its text, from the comments and
 * attributes above it to its closing brace. Strings, characters and comments are skipped while
 * counting braces, so a brace inside a literal does not end the type early.
 */
export function extractCSharpType(source: string, namePattern: RegExp): string | null {
  const declaration =
    /^[ \t]*(?:(?:public|internal|sealed|static|abstract|partial)\s+)*(?:class|struct)\s+(\w+)/gm;
  for (const match of source.matchAll(declaration)) {
    if (!namePattern.test(match[1]!)) continue;
    const end = findClosingBrace(source, match.index + match[0].length);
    if (end === null) return null;
    return source.slice(leadingCommentStart(source, match.index), end + 1);
  }
  return null;
}

/** Where the `///` comments and `[Attributes]` directly above a declaration begin. */
function leadingCommentStart(source: string, declarationStart: number): number {
  let start = declarationStart;
  for (;;) {
    const previousLineEnd = start - 1;
    if (previousLineEnd < 0) return start;
    const previousLineStart = source.lastIndexOf('\n', previousLineEnd - 1) + 1;
    const line = source.slice(previousLineStart, previousLineEnd).trim();
    if (!(line.startsWith('//') || line.startsWith('['))) return start;
    start = previousLineStart;
  }
}

function findClosingBrace(source: string, from: number): number | null {
  let depth = 0;
  let index = from;
  while (index < source.length) {
    const character = source[index]!;
    const next = source[index + 1];
    if (character === '/' && next === '/') {
      index = source.indexOf('\n', index);
      if (index < 0) return null;
    } else if (character === '/' && next === '*') {
      index = source.indexOf('*/', index + 2) + 1;
      if (index <= 0) return null;
    } else if (character === '@' && next === '"') {
      // Verbatim string: "" is an escaped quote, backslashes are literal.
      index += 2;
      while (index < source.length && !(source[index] === '"' && source[index + 1] !== '"')) {
        index += source[index] === '"' ? 2 : 1;
      }
    } else if (character === '"' || character === "'") {
      index += 1;
      while (index < source.length && source[index] !== character) {
        index += source[index] === '\\' ? 2 : 1;
      }
    } else if (character === '{') {
      depth += 1;
    } else if (character === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
    index += 1;
  }
  return null;
}
