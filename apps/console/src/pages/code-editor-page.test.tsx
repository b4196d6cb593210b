import type {
  CodeFile,
  CodeFileName,
  CodeFileVersion,
  CurrentUser,
  Sample,
} from '@latchkey/contracts';
import { codeFileNames } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { replaceCodeBoxText } from '@/test/code-mirror.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { findToast } from '@/test/find-toast.ts';
import {
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import { CodeEditorPage, NO_PERMISSION_MESSAGE } from './code-editor-page.tsx';

interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status: number; body: unknown };

/**
 * A stand-in for the owner API of packages/contracts/src/code-files.ts and samples.ts, holding
 * the documents and their histories in memory as the server would (a save or a restore is a
 * new version). `failNext` answers the next `METHOD /path` with an error instead.
 */
function stubCodeEditorApi({ canEdit = true }: { canEdit?: boolean } = {}) {
  const sent: SentRequest[] = [];
  const failures = new Map<string, Answer>();
  let nextId = 1;
  const versionId = () => `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;
  const files = new Map<CodeFileName, CodeFile & { history: CodeFileVersion[] }>();
  for (const name of codeFileNames) {
    const content = `// ${name} seed\n`;
    files.set(name, {
      id: name,
      name,
      language: 'typescript',
      content,
      lastModified: '2026-05-01T09:00:00.000Z',
      canEdit,
      version: 1,
      history: [
        {
          id: versionId(),
          version: 1,
          createdAt: '2026-05-01T09:00:00.000Z',
          savedBy: null,
          origin: 'seed',
          restoredFrom: null,
          sizeBytes: content.length,
          isCurrent: true,
        },
      ],
    });
  }
  const contents = new Map<string, string>();
  for (const file of files.values()) contents.set(file.history[0]!.id, file.content);

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  const withoutHistory = ({ history: _history, ...file }: CodeFile & { history: unknown }) => file;
  const writeVersion = (
    file: CodeFile & { history: CodeFileVersion[] },
    content: string,
    restoredFrom: number | null,
  ) => {
    const version: CodeFileVersion = {
      id: versionId(),
      version: file.version + 1,
      createdAt: '2026-05-01T10:00:00.000Z',
      savedBy: 'ada@example.com',
      origin: restoredFrom === null ? 'save' : 'restore',
      restoredFrom,
      sizeBytes: content.length,
      isCurrent: true,
    };
    contents.set(version.id, content);
    for (const earlier of file.history) earlier.isCurrent = false;
    file.history.unshift(version);
    Object.assign(file, {
      content,
      version: version.version,
      lastModified: version.createdAt,
    });
    return json(200, withoutHistory(file));
  };

  const sample = (language: string, code: string, updatedAt: string | null = null): Sample => ({
    language: language as Sample['language'],
    filename: 'LatchkeyClient.cs',
    code,
    baseUrl: null,
    isCustomized: updatedAt !== null,
    updatedAt,
  });

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    const path = decodeURIComponent(url.pathname);
    sent.push({ method, path, body });
    const failure = failures.get(`${method} ${path}`);
    if (failure) {
      failures.delete(`${method} ${path}`);
      return json(failure.status, failure.body);
    }

    if (path === '/sdk/index.json') {
      return json(200, {
        packages: [
          {
            language: 'csharp',
            name: 'Latchkey.Client',
            version: '0.1.0',
            file: 'Latchkey.Client.0.1.0.nupkg',
            size: 61_440,
            sha256: 'c'.repeat(64),
          },
        ],
      });
    }
    if (path === '/api/applications') {
      return json(200, [
        {
          id: 7,
          name: 'Alpha Client',
          apiKey: 'lk_alpha',
          version: '1.0.0',
        },
      ]);
    }
    const bare = /^\/api\/samples\/(\w+)$/.exec(path);
    if (bare) return json(200, sample(bare[1]!, 'var key = "YOUR_API_KEY";'));
    if (path === '/api/code-files') return json(200, [...files.values()].map(withoutHistory));
    const restore = /^\/api\/code-files\/([\w.-]+)\/versions\/([\w-]+)\/restore$/.exec(path);
    if (restore && method === 'POST') {
      const file = files.get(restore[1] as CodeFileName)!;
      const earlier = file.history.find((version) => version.id === restore[2])!;
      return writeVersion(file, contents.get(earlier.id)!, earlier.version);
    }
    const versions = /^\/api\/code-files\/([\w.-]+)\/versions$/.exec(path);
    if (versions) {
      return json(200, { versions: files.get(versions[1] as CodeFileName)!.history, limit: 50 });
    }
    const one = /^\/api\/code-files\/([\w.-]+)$/.exec(path);
    if (one) {
      const file = files.get(one[1] as CodeFileName);
      if (!file) return json(404, { message: 'File not found', code: 'NOT_FOUND' });
      if (method === 'PUT') return writeVersion(file, (body as { content: string }).content, null);
      return json(200, withoutHistory(file));
    }
    return json(404, { message: 'Not found', code: 'NOT_FOUND' });
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    sentWith: (method: string) => sent.filter((request) => request.method === method),
    sent: (method: string, path: string) =>
      sent.filter((request) => request.method === method && request.path === path),
    failNext: (method: string, path: string, answer: Answer) =>
      failures.set(`${method} ${path}`, answer),
  };
}

function renderPage(user: CurrentUser = createCurrentUser()) {
  return renderWithProviders(<CodeEditorPage />, {
    path: '/code-editor',
    auth: signedInAuth(user),
    toaster: true,
  });
}

/** Save is enabled once the edit has reached the page's state. */
async function clickSave() {
  const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  await waitFor(() => expect(save.disabled).toBe(false));
  fireEvent.click(save);
}

describe('CodeEditorPage', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubResizeObserver();
    dismissToast();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the Site Owner badge, the template part and the Your Permissions card to an owner', async () => {
    stubCodeEditorApi();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Code Editor', level: 1 })).toBeTruthy();
    expect(screen.getByText('Site Owner')).toBeTruthy();
    expect(screen.queryByText(NO_PERMISSION_MESSAGE)).toBeNull();
    // The bare template with its placeholder until an application is chosen; C# by default.
    expect(screen.getByRole('combobox', { name: 'Language' }).textContent).toBe('C# WinForms');
    expect(await screen.findByText(/YOUR_API_KEY";/)).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Edit Template' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    // The template is a program on the C# SDK: how to add that package comes with it.
    const install = screen.getByRole('region', { name: 'Install the C# SDK' });
    expect(
      (await within(install).findByRole('figure', { name: 'Install command' })).textContent,
    ).toContain(`${window.location.origin}/sdk/Latchkey.Client.0.1.0.nupkg`);

    const access = screen.getByRole('list', { name: 'Your access' });
    expect(within(access).getByText('Role: owner')).toBeTruthy();
    expect(within(access).getByText('Code Editing Enabled')).toBeTruthy();
    expect(within(access).getByText('User Management Enabled')).toBeTruthy();
    // The owner holds all eight by role.
    expect(
      within(screen.getByRole('list', { name: 'All your permissions' })).getAllByRole('listitem'),
    ).toHaveLength(8);
  });

  it('lists the three documents with their last-modified times and opens one', async () => {
    stubCodeEditorApi();
    renderPage();
    const files = await screen.findByRole('navigation', { name: 'Files' });
    const buttons = within(files).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(
      codeFileNames.map((name) => expect.stringContaining(name) as unknown),
    );
    expect(buttons[0]!.getAttribute('aria-current')).toBe('true');
    expect(within(files).getAllByText(/^Modified May 1, 2026/)).toHaveLength(3);

    fireEvent.click(within(files).getByRole('button', { name: /permissions\.ts/ }));
    expect(await screen.findByRole('heading', { name: 'permissions.ts' })).toBeTruthy();
    expect(await screen.findByText('No earlier versions yet')).toBeTruthy();
  });

  it('saves an edit with its base version, says File Saved, and lists the new version', async () => {
    const api = stubCodeEditorApi();
    renderPage();
    await screen.findByRole('heading', { name: 'authentication.ts' });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await replaceCodeBoxText('authentication.ts document', '// our own notes\n');
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    expect(await findToast('authentication.ts was updated successfully.')).toBeTruthy();
    expect(screen.getByText('File Saved', { selector: 'li *' })).toBeTruthy();
    expect(api.sent('PUT', '/api/code-files/authentication.ts')[0]!.body).toEqual({
      content: '// our own notes\n',
      baseVersion: 1,
    });
    const history = await screen.findByRole('list', { name: 'Versions of authentication.ts' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2));
    expect(within(history).getByText('Current')).toBeTruthy();
    expect(screen.getByTestId('code-file-last-modified').textContent).toContain('version 2');
  });

  it("says Save Failed in the spec's words, with the server's reason, and keeps the edit", async () => {
    const api = stubCodeEditorApi();
    renderPage();
    await screen.findByRole('heading', { name: 'authentication.ts' });
    await replaceCodeBoxText('authentication.ts document', '// refused\n');
    api.failNext('PUT', '/api/code-files/authentication.ts', {
      status: 403,
      body: { message: 'You need the "Edit Code" permission to do this.', code: 'FORBIDDEN' },
    });
    await clickSave();
    expect(
      await findToast(
        'There was an error saving the file. You need the "Edit Code" permission to do this.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Save Failed', { selector: 'li *' })).toBeTruthy();
    // The edit is still there to save again.
    const files = screen.getByRole('navigation', { name: 'Files' });
    expect(within(files).getByText('Unsaved')).toBeTruthy();
  });

  it('restores an earlier version only after a confirmation', async () => {
    const api = stubCodeEditorApi();
    renderPage();
    await screen.findByRole('heading', { name: 'authentication.ts' });
    await replaceCodeBoxText('authentication.ts document', '// second\n');
    await clickSave();
    await findToast('authentication.ts was updated successfully.');

    fireEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Restore version 1 of authentication.ts?',
    });
    expect(within(dialog).getByText(/becomes the current version \(version 3\)/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.sentWith('POST')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Restore version 1' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Restore Version',
      }),
    );
    expect(
      await findToast('authentication.ts is back to version 1, saved as version 3.'),
    ).toBeTruthy();
    const history = screen.getByRole('list', { name: 'Versions of authentication.ts' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(3));
    expect(within(history).getByText(/Restored from version 1/)).toBeTruthy();
  });

  it('without edit_code: the alert, read-only documents, no template, no Save or Restore', async () => {
    const api = stubCodeEditorApi({ canEdit: false });
    renderPage(
      createCurrentUser({
        userPermissions: { role: 'user', permissions: ['manage_applications'] },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(NO_PERMISSION_MESSAGE);
    expect(screen.queryByText('Site Owner')).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Language' })).toBeNull();
    expect(await screen.findByTestId('read-only-notice')).toBeTruthy();
    expect(screen.getByText('You need code editing permissions to modify this file.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await screen.findByText('No earlier versions yet');
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
    const access = screen.getByRole('list', { name: 'Your access' });
    expect(within(access).getByText('Role: user')).toBeTruthy();
    expect(within(access).getByText('Code Editing Disabled')).toBeTruthy();
    expect(within(access).getByText('User Management Disabled')).toBeTruthy();
    expect(screen.getByText('Manage Applications')).toBeTruthy();
    expect(api.sent('GET', '/api/applications')).toHaveLength(0);
  });

  it('shows a load failure of the files with Try Again', async () => {
    const api = stubCodeEditorApi();
    api.failNext('GET', '/api/code-files', {
      status: 500,
      body: { message: 'Database unavailable', code: 'INTERNAL' },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Error loading the files' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('navigation', { name: 'Files' })).toBeTruthy();
  });
});
