import type { Sample } from '@latchkey/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { readCodeBox, replaceCodeBoxText } from '@/test/code-mirror.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { jsonResponse, neverAnswered, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { SAMPLE_FETCH_ERROR, SamplePanel } from './sample-panel.tsx';

const SAMPLE_PATH = '/api/applications/7/samples/csharp';
const DEFAULT_CODE = 'const string ApiKey = "lk_live_orbit";\n';
const CODE_BOX = 'C# WinForms code';

/**
 * GET, PUT and DELETE of one application's C# sample, as the server keeps it: a save is the
 * account's edit (customized, with a new updatedAt), a reset brings back the rendered default.
 */
function stubSampleApi({ editedCode = null as string | null } = {}) {
  let saved = editedCode;
  let saves = 0;
  const current = (): Sample => ({
    language: 'csharp',
    filename: 'LatchkeyClient.cs',
    code: saved ?? DEFAULT_CODE,
    baseUrl: 'https://auth.example.com',
    isCustomized: saved !== null,
    updatedAt: saved === null ? null : new Date(Date.UTC(2025, 2, 14, 12, 0, saves)).toISOString(),
  });
  return stubOwnerApi(({ method, url, body }) => {
    if (url.pathname !== SAMPLE_PATH) return undefined;
    if (method === 'PUT') {
      saved = (body as { code: string }).code;
      saves += 1;
    }
    if (method === 'DELETE') saved = null;
    return jsonResponse(200, current());
  });
}

function renderPanel({ canEdit }: { canEdit: boolean }) {
  renderWithProviders(<SamplePanel applicationId={7} language="csharp" canEdit={canEdit} />, {
    auth: signedInAuth(),
    toaster: true,
  });
}

const badges = () =>
  within(screen.getByRole('list', { name: 'About this sample' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('SamplePanel', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubResizeObserver();
    dismissToast();
  });

  it('says which sample is loading while it loads', () => {
    stubOwnerApi(() => neverAnswered());
    renderPanel({ canEdit: true });
    expect(screen.getByRole('status').textContent).toBe('Loading the C# WinForms sample…');
    expect(screen.queryByRole('button', { name: 'Copy Code' })).toBeNull();
  });

  it("shows the server's reason, else its own, when the sample cannot be loaded, and Try Again loads it", async () => {
    let answer: 'refused' | 'offline' | 'ok' = 'refused';
    stubOwnerApi(({ url }) => {
      if (url.pathname !== SAMPLE_PATH) return undefined;
      if (answer === 'refused') {
        return jsonResponse(500, { message: 'Database unavailable', code: 'INTERNAL' });
      }
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return jsonResponse(200, {
        language: 'csharp',
        filename: 'LatchkeyClient.cs',
        code: DEFAULT_CODE,
        baseUrl: 'https://auth.example.com',
        isCustomized: false,
        updatedAt: null,
      } satisfies Sample);
    });
    const user = userEvent.setup();
    renderPanel({ canEdit: true });

    expect(await screen.findByRole('heading', { name: 'Error loading the sample' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();

    answer = 'offline';
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(SAMPLE_FETCH_ERROR)).toBeTruthy();
    expect(SAMPLE_FETCH_ERROR).toBe('Failed to load the sample');

    answer = 'ok';
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await readCodeBox(CODE_BOX)).toBe(DEFAULT_CODE);
    expect(screen.queryByRole('heading', { name: 'Error loading the sample' })).toBeNull();
  });

  it('shows the default sample read-only, with Copy Code and Download but no edit, to one who cannot edit', async () => {
    stubSampleApi({ editedCode: '// our edit\n' });
    renderPanel({ canEdit: false });

    expect(await readCodeBox(CODE_BOX)).toBe('// our edit\n');
    expect(badges()).toEqual([
      'C# WinForms',
      'LatchkeyClient.cs',
      'Signed responses',
      'Customized',
    ]);
    expect(screen.getByRole('button', { name: 'Copy Code' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download LatchkeyClient.cs' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit Code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset to default' })).toBeNull();
    expect(
      screen.getByText(
        'Ready to paste into LatchkeyClient.cs: the API key, base URL, version and signing key are already in it.',
      ),
    ).toBeTruthy();
  });

  it('edits: Cancel leaves an unchanged draft at once, asks before discarding a changed one, and Save keeps the edit', async () => {
    const sent = stubSampleApi();
    const user = userEvent.setup();
    renderPanel({ canEdit: true });
    expect(await readCodeBox(CODE_BOX)).toBe(DEFAULT_CODE);
    expect(badges()).toEqual(['C# WinForms', 'LatchkeyClient.cs', 'Signed responses']);
    // Nothing to reset while the sample is the default.
    expect(screen.queryByRole('button', { name: 'Reset to default' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit Code' }));
    expect(badges()).toContain('Editing');
    expect(
      screen.getByText('Editing: Tab indents. Press Esc, then Tab, to move on from the code.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy Code' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(badges()).not.toContain('Editing');

    await user.click(screen.getByRole('button', { name: 'Edit Code' }));
    await replaceCodeBoxText(CODE_BOX, '// thrown away\n');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const discard = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    expect(
      within(discard).getByText(
        'Your changes to the C# WinForms code are not saved and will be lost.',
      ),
    ).toBeTruthy();
    await user.click(within(discard).getByRole('button', { name: 'Discard Changes' }));
    await waitFor(() => expect(badges()).not.toContain('Editing'));
    expect(await readCodeBox(CODE_BOX)).toBe(DEFAULT_CODE);

    await user.click(screen.getByRole('button', { name: 'Edit Code' }));
    await replaceCodeBoxText(CODE_BOX, '// kept\n');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Code template updated successfully')).toBeTruthy();
    await waitFor(() => expect(badges()).toContain('Customized'));
    expect(badges()).not.toContain('Editing');
    expect(await readCodeBox(CODE_BOX)).toBe('// kept\n');
    expect(sent.filter((request) => request.method !== 'GET')).toEqual([
      { method: 'PUT', path: SAMPLE_PATH, body: { code: '// kept\n' } },
    ]);
  });

  it('resets an edited sample to the default only after asking', async () => {
    const sent = stubSampleApi({ editedCode: '// our edit\n' });
    const user = userEvent.setup();
    renderPanel({ canEdit: true });
    expect(await readCodeBox(CODE_BOX)).toBe('// our edit\n');

    await user.click(screen.getByRole('button', { name: 'Reset to default' }));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Reset to the default sample?',
    });
    expect(
      within(confirm).getByText(
        'Your edited C# WinForms code is deleted, and the default sample for this application (its API key, base URL and version) is shown again. This cannot be undone.',
      ),
    ).toBeTruthy();
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);

    await user.click(within(confirm).getByRole('button', { name: 'Reset to Default' }));
    expect(await screen.findByText('Code template reset to the default')).toBeTruthy();
    await waitFor(() => expect(badges()).not.toContain('Customized'));
    expect(await readCodeBox(CODE_BOX)).toBe(DEFAULT_CODE);
    expect(screen.queryByRole('button', { name: 'Reset to default' })).toBeNull();
    expect(sent.filter((request) => request.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: SAMPLE_PATH, body: undefined },
    ]);
  });
});
