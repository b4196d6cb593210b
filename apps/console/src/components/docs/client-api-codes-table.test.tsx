import {
  CLIENT_API_SERVER_ERROR_CODE,
  clientApiCodeMeanings,
  clientApiCodes,
} from '@latchkey/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import clientApiMarkdown from '../../../../../docs/client-api.md?raw';
import { markdownSection } from '@/lib/markdown-blocks.ts';
import { ClientApiCodesTable } from './client-api-codes-table.tsx';

/**
 * The `| code | meaning |` rows of docs/client-api.md's "Codes (the closed list)" table, with
 * the Markdown's code formatting (backticks) taken out of the meanings.
 */
function markdownCodeRows(): [string, string][] {
  return markdownSection(clientApiMarkdown, 'Codes (the closed list)')
    .split('\n')
    .map((line) => /^\|\s*`(\w+)`\s*\|\s*(.*?)\s*\|$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1]!, match[2]!.replaceAll('`', '')]);
}

describe('the closed list of client API codes', () => {
  it('docs/client-api.md tables exactly the codes and meanings of packages/contracts', () => {
    expect(markdownCodeRows()).toEqual(
      clientApiCodes.map((code) => [code, clientApiCodeMeanings[code]]),
    );
  });

  it('/docs shows every code with its meaning, in order, and the server-fault code apart', () => {
    render(<ClientApiCodesTable />);
    const rows = within(screen.getByTestId('client-api-codes')).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual(clientApiCodes.map((code) => [code, clientApiCodeMeanings[code]]));
    expect(screen.getByText(CLIENT_API_SERVER_ERROR_CODE)).toBeDefined();
  });
});
