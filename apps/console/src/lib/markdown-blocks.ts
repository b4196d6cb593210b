/**
 * Just enough Markdown to show a section of the repository's own docs/*.md in /docs (so the
 * page and the file cannot drift): headings, paragraphs, bullet lists and fenced code.
 */
export type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'code'; language: string; code: string };

/** The lines under `## {title}` up to the next heading of the same or a higher level. */
export function markdownSection(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex(
    (line) => /^(#+) /.test(line) && line.replace(/^#+ /, '') === title,
  );
  if (start < 0) return '';
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level,
  );
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

export function parseMarkdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const lines = markdown.split('\n');
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
    if (list) blocks.push({ kind: 'list', items: list });
    list = null;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const fence = /^(\s*)```(\w*)\s*$/.exec(line);
    if (fence) {
      flush();
      const indent = fence[1]!.length;
      const code: string[] = [];
      for (index += 1; index < lines.length && !/^\s*```\s*$/.test(lines[index]!); index += 1) {
        code.push(lines[index]!.slice(indent));
      }
      blocks.push({ kind: 'code', language: fence[2]!, code: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      continue;
    }
    const item = /^- (.*)$/.exec(line);
    if (item) {
      if (paragraph.length > 0) flush();
      list ??= [];
      list.push(item[1]!);
      continue;
    }
    if (line.trim() === '') {
      // A blank line inside a list ends the item, not the list, unless text follows unindented.
      if (!list) flush();
      continue;
    }
    if (list && /^\s+\S/.test(line) && paragraph.length === 0) {
      const items: string[] = list;
      items[items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (list) flush();
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

export type InlinePart =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'emphasis'; text: string };

/** `code`, **strong** and _emphasis_; everything else is text as written. */
export function parseInline(text: string): InlinePart[] {
  const parts: InlinePart[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|(?<![\w])_([^_]+)_(?![\w])/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) parts.push({ kind: 'code', text: match[1] });
    else if (match[2] !== undefined) parts.push({ kind: 'strong', text: match[2] });
    else parts.push({ kind: 'emphasis', text: match[3]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
