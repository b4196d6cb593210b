import { isCleanText } from '@latchkey/contracts';

type Path = (string | number)[];

/**
 * The path of the first string or object key, at any depth, that `isCleanText` refuses
 * (`[]` when the value itself is such a string), or null when every piece of text is clean.
 * Iterative, not recursive: a body nested a hundred thousand levels deep must be a 400, not
 * a stack overflow.
 */
export function findUncleanText(value: unknown): Path | null {
  // Paths are linked lists built back into arrays only for the answer: copying them at each
  // level would cost the square of the depth.
  const stack: { value: unknown; at: PathNode | null }[] = [{ value, at: null }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, at } = next;
    if (typeof current === 'string') {
      if (!isCleanText(current)) return pathOf(at);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        stack.push({ value: current[index], at: { key: index, parent: at } });
      }
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) if (!isCleanText(key)) return pathOf({ key, parent: at });
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index]!;
        const entry = (current as Record<string, unknown>)[key];
        stack.push({ value: entry, at: { key, parent: at } });
      }
    }
  }
  return null;
}

interface PathNode {
  key: string | number;
  parent: PathNode | null;
}

function pathOf(node: PathNode | null): Path {
  const path: Path = [];
  for (let current = node; current; current = current.parent) path.push(current.key);
  return path.reverse();
}

/** `name: text must be …`; the path is made printable, as it may hold the bad text itself. */
export function uncleanTextMessage(path: Path, problem: string): string {
  if (path.length === 0) return problem;
  const printable = path.map((part) =>
    typeof part === 'number' ? String(part) : part.toWellFormed().replaceAll('\0', '\uFFFD'),
  );
  return `${printable.join('.')}: ${problem}`;
}
