/**
 * A LIKE/ILIKE pattern matching `text` anywhere. The owner's search is text, not a pattern:
 * % and _ (and the escape character itself) are escaped so that they match only themselves.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
