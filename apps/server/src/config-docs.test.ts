import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { environmentSchema } from './config.ts';

/**
 * docs/configuration.md is written by hand, for people; this keeps it equal to the one schema
 * the server parses its environment with. Each table headed `| variable | default | meaning |`
 * lists one variable per row; other tables (the tests' own variables) are not the server's.
 */
const documentPath = new URL('../../../docs/configuration.md', import.meta.url);

interface DocumentedVariable {
  name: string;
  /** The default cell as written. */
  defaultCell: string;
  line: number;
}

const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

const isSeparatorRow = (row: string) => /^\|[\s|:-]+\|$/.test(row.trim());

function documentedVariables(markdown: string): DocumentedVariable[] {
  const lines = markdown.split('\n');
  const variables: DocumentedVariable[] = [];
  let isInVariableTable = false;
  lines.forEach((line, index) => {
    if (!line.trim().startsWith('|')) {
      isInVariableTable = false;
      return;
    }
    const cells = cellsOf(line);
    if (cells.join('|') === 'variable|default|meaning') {
      isInVariableTable = true;
      return;
    }
    if (!isInVariableTable || isSeparatorRow(line)) return;
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? '')?.[1];
    if (!name || cells.length !== 3) {
      throw new Error(
        `docs/configuration.md line ${index + 1}: a variable row names one variable in backticks and has three cells: ${line}`,
      );
    }
    variables.push({ name, defaultCell: cells[1]!, line: index + 1 });
  });
  return variables;
}

/** The value the schema gives an unset variable, as the document writes it; null: no default. */
function schemaDefaultOf(schema: z.ZodType): string | null {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return null;
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}

const schemaVariables = Object.keys(environmentSchema.shape).sort();
const documented = documentedVariables(readFileSync(documentPath, 'utf8'));
const documentedNames = documented.map((variable) => variable.name);

describe('docs/configuration.md against the environment schema of config.ts', () => {
  it('reads the tables it checks', () => {
    expect(documented.length).toBeGreaterThanOrEqual(40);
  });

  it('documents every variable of the schema', () => {
    expect(schemaVariables.filter((name) => !documentedNames.includes(name))).toEqual([]);
  });

  it('documents no variable the schema does not read', () => {
    expect(documentedNames.filter((name) => !schemaVariables.includes(name))).toEqual([]);
  });

  it('documents each variable once', () => {
    expect(
      documentedNames.filter((name, index) => documentedNames.indexOf(name) !== index),
    ).toEqual([]);
  });

  it("writes each schema default as the schema's own value, first in its cell", () => {
    const shape = environmentSchema.shape as Record<string, z.ZodType>;
    const mismatches = documented.flatMap(({ name, defaultCell, line }) => {
      const schema = shape[name];
      if (!schema) return [];
      const expected = schemaDefaultOf(schema);
      if (expected === null) {
        // No default in the schema: the cell says what happens instead, never a bare value.
        return /^`[^`]*`$/.test(defaultCell) ? [`line ${line}: ${name} has no default`] : [];
      }
      return defaultCell.startsWith(`\`${expected}\``)
        ? []
        : [`line ${line}: ${name} defaults to \`${expected}\`, the document says ${defaultCell}`];
    });
    expect(mismatches).toEqual([]);
  });
});
