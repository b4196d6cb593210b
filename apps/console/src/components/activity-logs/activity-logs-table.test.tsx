import type { ActivityLog } from '@latchkey/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ActivityLogsTable } from './activity-logs-table.tsx';

function createLog(overrides: Partial<ActivityLog> = {}): ActivityLog {
  return {
    id: 1,
    event: 'user_login',
    success: true,
    applicationId: 1,
    application: { name: 'Orbit' },
    appUser: { username: 'bob' },
    username: 'bob',
    ipAddress: '127.0.0.1',
    errorMessage: null,
    metadata: {},
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The Details cell of the only row. */
function detailsCell(): HTMLElement {
  const row = screen.getByTestId('activity-log-row');
  return within(row).getAllByRole('cell')[5]!;
}

describe('ActivityLogsTable: Details', () => {
  it('reads the metadata as text, with the whole record as sent on hover', () => {
    const metadata = { hwid: 'HWID-BOB-01', version: '1.0.0', code: 'OK' };
    render(<ActivityLogsTable logs={[createLog({ metadata })]} />);

    expect(detailsCell().textContent).toBe('hwid HWID-BOB-01 · version 1.0.0 · code OK');
    expect(detailsCell().getAttribute('title')).toBe(JSON.stringify(metadata));
  });

  it('keeps everything a cut preview leaves out in the title', () => {
    const metadata = { hwid: 'HWID-'.repeat(20), version: '1.0.0' };
    render(<ActivityLogsTable logs={[createLog({ metadata })]} />);

    expect(detailsCell().textContent).toMatch(/…$/);
    expect(detailsCell().textContent).not.toContain('version');
    expect(JSON.parse(detailsCell().getAttribute('title')!)).toEqual(metadata);
  });

  it("says 'Success' with no title when there is no metadata", () => {
    render(<ActivityLogsTable logs={[createLog()]} />);

    expect(detailsCell().textContent).toBe('Success');
    expect(detailsCell().hasAttribute('title')).toBe(false);
  });
});
