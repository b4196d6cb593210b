import type { AppFile, ImportKind, ImportProgress } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appUsersQueryKey, applicationLicensesQueryKey } from '@/hooks/owner-query-keys.ts';
import { dismissToast } from '@/hooks/use-toast.ts';
import { ApiError } from '@/lib/api.ts';
import { uploadWithProgress } from '@/lib/upload-with-progress.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import {
  createApplication,
  createPlan,
  jsonResponse,
  stubOwnerApi,
  type SentRequest,
} from '@/test/stub-owner-api.ts';
import {
  ACCEPTED_FORMATS_HINT,
  IMPORT_CONTINUES_NOTE,
  IMPORT_DIALOG_TITLE,
  IMPORT_FILE_REQUIRED,
} from './import-display.ts';
import { ImportDialog } from './import-dialog.tsx';
import { FILE_IDS_CHANGE_NOTE } from './import-files-to-upload.tsx';
import { COMPATIBILITY_STAYS_OFF, ENTER_OWNER_ID_AND_NAME } from './import-keyauth-settings.tsx';

// XMLHttpRequest's upload progress is the browser's; here the upload is a stand-in the test drives.
vi.mock('@/lib/upload-with-progress.ts', () => ({ uploadWithProgress: vi.fn() }));

const IMPORT_ID = '30000000-0000-4000-8000-000000000001';
const IMPORT_PATH = `/api/applications/7/imports/${IMPORT_ID}`;
const PRO = createPlan(1, { name: 'Pro' });
const BASIC = createPlan(2, { name: 'Basic', durationDays: 30, entitlements: ['LEVEL_2'] });
const OLD = createPlan(3, { name: 'Old', archived: true });

function importProgress(overrides: Partial<ImportProgress> = {}): ImportProgress {
  return {
    id: IMPORT_ID,
    source: 'keyauth',
    kind: 'users',
    format: 'panel-json',
    status: 'previewed',
    totalRows: 155,
    readableRows: 153,
    conflictRows: 150,
    unreadableRows: 2,
    doneRows: 0,
    createdRows: 0,
    skippedRows: 0,
    conflicts: [{ rowNumber: 3, reason: "username 'pilot' is already a user of the application" }],
    unreadable: [
      { rowNumber: 5, reason: 'row 5: "username" is missing' },
      { rowNumber: 2, reason: 'subscription 2 (in the "subscription" list): no user' },
    ],
    levels: ['default'],
    levelPlans: {},
    filesToUpload: [],
    keyauthSettings: null,
    error: null,
    createdAt: '2026-06-10T12:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

/**
 * The import routes of packages/contracts/src/imports.ts: a start answers `running`, then each
 * read answers the next of `reads` (the last one repeats); a read before any start answers
 * `preview` where given. `startAnswer` replaces the start's.
 */
function stubImportsApi({
  reads,
  startAnswer,
  kind = 'users',
  preview,
}: {
  reads: ImportProgress[];
  startAnswer?: { status: number; body: unknown };
  kind?: ImportKind;
  preview?: ImportProgress;
}) {
  const state = { reads: [...reads], isStarted: false };
  const sent = stubOwnerApi(({ method, url, body }) => {
    if (url.pathname === '/api/applications/7/plans') return jsonResponse(200, [PRO, BASIC, OLD]);
    if (url.pathname === `${IMPORT_PATH}/start` && method === 'POST') {
      state.isStarted = true;
      if (startAnswer) return jsonResponse(startAnswer.status, startAnswer.body);
      const { levelPlans } = body as { levelPlans: Record<string, string> };
      return jsonResponse(
        202,
        importProgress({
          kind,
          status: 'running',
          levelPlans,
          startedAt: '2026-06-10T12:00:01.000Z',
        }),
      );
    }
    if (url.pathname === IMPORT_PATH && method === 'GET') {
      if (preview && !state.isStarted) return jsonResponse(200, preview);
      const next = state.reads.length > 1 ? state.reads.shift()! : state.reads[0]!;
      return jsonResponse(200, next);
    }
    return undefined;
  });
  return {
    starts: (): SentRequest[] => sent.filter((request) => request.path === `${IMPORT_PATH}/start`),
    reads: (): SentRequest[] => sent.filter((request) => request.path === IMPORT_PATH),
  };
}

/** The next upload waits for the test: it reports progress, then answers `preview`. */
function holdNextUpload() {
  const held: {
    url?: string;
    body?: Blob;
    onProgress?: (sent: number, total: number) => void;
    signal?: AbortSignal;
    answer?: (preview: ImportProgress) => void;
    refuse?: (error: Error) => void;
  } = {};
  vi.mocked(uploadWithProgress).mockImplementationOnce(
    ({ url, body, onProgress, signal }) =>
      new Promise<string>((resolve, reject) => {
        signal?.addEventListener('abort', () =>
          reject(new DOMException('Upload cancelled', 'AbortError')),
        );
        Object.assign(held, {
          url,
          body,
          onProgress,
          signal,
          answer: (preview: ImportProgress) => resolve(JSON.stringify(preview)),
          refuse: reject,
        });
      }),
  );
  return held;
}

function renderDialog() {
  const rendered = renderWithProviders(
    <ImportDialog application={createApplication({ id: 7, name: 'Orbit' })} />,
    { toaster: true },
  );
  return { ...rendered, invalidate: vi.spyOn(rendered.queryClient, 'invalidateQueries') };
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
  return within(await screen.findByRole('dialog', { name: IMPORT_DIALOG_TITLE }));
}

function chooseFile(dialog: ReturnType<typeof within>, name = 'KeyAuthUsers.json') {
  const file = new File(['{"users":[]}'], name, { type: 'application/json' });
  fireEvent.change(dialog.getByLabelText(/^Export file/), { target: { files: [file] } });
  return file;
}

/** Uploads a file of `kind` and answers it with `preview`. */
async function uploadForPreview(
  dialog: ReturnType<typeof within>,
  preview: ImportProgress,
  kind = 'Users',
) {
  const upload = holdNextUpload();
  fireEvent.click(dialog.getByRole('radio', { name: new RegExp(`^${kind}`) }));
  chooseFile(dialog);
  fireEvent.click(dialog.getByRole('button', { name: 'Upload and preview' }));
  await waitFor(() => expect(upload.answer).toBeDefined());
  upload.answer!(preview);
  await dialog.findByRole('button', { name: 'Start import' });
  return upload;
}

async function choosePlan(dialog: ReturnType<typeof within>, level: string | RegExp, plan: string) {
  fireEvent.click(await dialog.findByRole('combobox', { name: level }));
  fireEvent.click(await screen.findByRole('option', { name: plan }));
}

describe('ImportDialog', { timeout: 30_000 }, () => {
  beforeEach(() => {
    dismissToast();
    vi.mocked(uploadWithProgress).mockReset();
    stubScrollIntoView();
    stubResizeObserver();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks what to import and for a file, and sends nothing without one', async () => {
    stubImportsApi({ reads: [importProgress()] });
    renderDialog();
    const dialog = await openDialog();
    expect(dialog.getByRole('group', { name: 'What to import' })).toBeTruthy();
    expect(dialog.getByRole('radio', { name: /^Users/ })).toHaveProperty('checked', true);
    expect(dialog.getByRole('radio', { name: /^Licence keys/ })).toHaveProperty('checked', false);
    expect(dialog.getByText(new RegExp(ACCEPTED_FORMATS_HINT.slice(0, 40)))).toBeTruthy();
    expect(dialog.getByLabelText(/^Export file/).getAttribute('accept')).toContain('.csv');

    fireEvent.click(dialog.getByRole('button', { name: 'Upload and preview' }));
    expect(dialog.getByRole('alert').textContent).toBe(IMPORT_FILE_REQUIRED);
    expect(uploadWithProgress).not.toHaveBeenCalled();
  });

  it('uploads with progress, previews, maps the level, runs to the end and refreshes the lists', async () => {
    const api = stubImportsApi({
      reads: [
        importProgress({ status: 'running', doneRows: 1, createdRows: 1, levelPlans: {} }),
        importProgress({
          status: 'done',
          doneRows: 153,
          createdRows: 3,
          skippedRows: 150,
          finishedAt: '2026-06-10T12:00:03.000Z',
        }),
      ],
    });
    const { invalidate } = renderDialog();
    const dialog = await openDialog();

    const upload = holdNextUpload();
    const file = chooseFile(dialog);
    fireEvent.click(dialog.getByRole('button', { name: 'Upload and preview' }));
    await waitFor(() => expect(upload.onProgress).toBeDefined());
    expect(upload.url).toBe('/api/applications/7/imports?source=keyauth&kind=users');
    expect(upload.body).toBe(file);
    upload.onProgress!(512, 1024);
    expect(await dialog.findByText('Uploading: 50% · 512 bytes of 1 KB')).toBeTruthy();
    expect(
      dialog.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'),
    ).toBe('50');
    expect(dialog.getByRole('button', { name: 'Upload and preview' })).toHaveProperty(
      'disabled',
      true,
    );
    upload.answer!(importProgress());

    // The preview: the counts, and the problems by row number (the first listed, the rest said).
    const holds = within(await dialog.findByLabelText('What the file holds'));
    // The Upload button went with its step: focus moved to the preview, not out of the dialog.
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    const figure = (label: string) => holds.getByText(label).nextElementSibling?.textContent;
    expect(figure('Rows in the file')).toBe('155');
    expect(figure('Readable')).toBe('153');
    expect(figure('Will be created')).toBe('3');
    expect(figure('Conflicts, skipped')).toBe('150');
    expect(figure('Unreadable')).toBe('2');
    const conflicts = within(
      dialog.getByRole('region', { name: /^Conflicts: usernames the application already has/ }),
    );
    expect(conflicts.getByText('Row 3')).toBeTruthy();
    expect(dialog.getByText('and 149 more')).toBeTruthy();
    const unreadable = within(dialog.getByRole('region', { name: 'Unreadable rows (2)' }));
    expect(unreadable.getAllByRole('listitem').map((row) => row.textContent)).toEqual([
      'Row 5"username" is missing',
      'Row 2subscription 2 (in the "subscription" list): no user',
    ]);

    // A user's level may stay without a plan; archived plans are not offered.
    const level = await dialog.findByRole('combobox', { name: 'Level “default”' });
    expect(level.textContent).toContain('No subscription');
    fireEvent.click(level);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'No subscription',
      'Pro (Lifetime)',
      'Basic (30 days)',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Basic (30 days)' }));

    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    const bar = await dialog.findByRole('progressbar', { name: 'Import progress' });
    await waitFor(() => expect(api.starts()).toHaveLength(1));
    expect(api.starts()[0]!.body).toEqual({ levelPlans: { default: BASIC.id } });
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('153');
    expect(dialog.getByText(IMPORT_CONTINUES_NOTE)).toBeTruthy();

    // Read about once a second until it is done.
    await waitFor(() => expect(dialog.getByText('1 of 153 rows')).toBeTruthy());
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(await dialog.findByText('Import finished')).toBeTruthy();
    expect(dialog.getByText('153 of 153 rows')).toBeTruthy();
    expect(await findToast('Import finished: 3 users created, 150 skipped')).toBeTruthy();
    const did = within(dialog.getByLabelText('What the import did'));
    expect(did.getByText('Created').nextElementSibling?.textContent).toBe('3');
    expect(did.getByText('Skipped').nextElementSibling?.textContent).toBe('150');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: appUsersQueryKey(7) });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: applicationLicensesQueryKey(7) });

    // Nothing polls once it is done.
    const readsWhenDone = api.reads().length;
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(api.reads()).toHaveLength(readsWhenDone);
    fireEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('needs a plan for every level of keys before it starts them', async () => {
    const api = stubImportsApi({
      reads: [importProgress({ kind: 'keys', status: 'done', doneRows: 153, createdRows: 3 })],
    });
    renderDialog();
    const dialog = await openDialog();
    const upload = await uploadForPreview(
      dialog,
      importProgress({ kind: 'keys', format: 'key-list-text', levels: ['', '1'] }),
      'Licence keys',
    );
    expect(upload.url).toBe('/api/applications/7/imports?source=keyauth&kind=keys');
    expect(dialog.getByText(/read as a list of keys, one a line/)).toBeTruthy();

    await choosePlan(dialog, /^Level “1”/, 'Pro (Lifetime)');
    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Choose a plan for every level of the keys: Keys without a level',
    );
    expect(
      dialog.getByRole('combobox', { name: /^Keys without a level/ }).getAttribute('aria-invalid'),
    ).toBe('true');
    expect(api.starts()).toHaveLength(0);

    await choosePlan(dialog, /^Keys without a level/, 'Basic (30 days)');
    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(api.starts()).toHaveLength(1));
    expect(api.starts()[0]!.body).toEqual({ levelPlans: { '': BASIC.id, '1': PRO.id } });
    expect(await findToast('Import finished: 3 licence keys created, 0 skipped')).toBeTruthy();
  });

  it('shows why a run failed and resumes it with the same plans', async () => {
    const failed = importProgress({
      status: 'failed',
      doneRows: 100,
      createdRows: 100,
      levelPlans: { default: PRO.id },
      error: 'The database stopped answering',
    });
    const api = stubImportsApi({
      reads: [
        failed,
        importProgress({ status: 'done', doneRows: 153, createdRows: 3, skippedRows: 150 }),
      ],
    });
    renderDialog();
    const dialog = await openDialog();
    await uploadForPreview(dialog, importProgress());
    await choosePlan(dialog, 'Level “default”', 'Pro (Lifetime)');
    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));

    expect((await dialog.findByRole('alert')).textContent).toBe('The database stopped answering');
    expect(await findToast('The import stopped before the end')).toBeTruthy();
    expect(dialog.getByText('100 of 153 rows')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Resume import' }));
    await waitFor(() => expect(api.starts()).toHaveLength(2));
    expect(api.starts()[1]!.body).toEqual({ levelPlans: { default: PRO.id } });
    expect(await dialog.findByText('Import finished')).toBeTruthy();
  });

  it("toasts the server's refusal of the file and keeps the form", async () => {
    stubImportsApi({ reads: [importProgress()] });
    renderDialog();
    const dialog = await openDialog();
    const upload = holdNextUpload();
    chooseFile(dialog, 'notes.txt');
    fireEvent.click(dialog.getByRole('button', { name: 'Upload and preview' }));
    await waitFor(() => expect(upload.refuse).toBeDefined());
    upload.refuse!(
      new ApiError(
        400,
        'Bad Request',
        JSON.stringify({ message: 'This is not a KeyAuth users export', code: 'BAD_REQUEST' }),
      ),
    );
    expect(await findToast('This is not a KeyAuth users export')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Upload and preview' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(dialog.queryByRole('progressbar')).toBeNull();
  });

  it('stops the upload when the dialog closes, without an error toast', async () => {
    stubImportsApi({ reads: [importProgress()] });
    renderDialog();
    const dialog = await openDialog();
    const upload = holdNextUpload();
    chooseFile(dialog);
    fireEvent.click(dialog.getByRole('button', { name: 'Upload and preview' }));
    await waitFor(() => expect(upload.signal).toBeDefined());
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(upload.signal!.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Failed to read the export file')).toBeNull();
  });

  it('toasts a refused start and reads the progress again', async () => {
    const api = stubImportsApi({
      reads: [importProgress({ status: 'running', doneRows: 10 })],
      startAnswer: {
        status: 409,
        body: { message: 'The import is already running', code: 'CONFLICT' },
      },
    });
    renderDialog();
    const dialog = await openDialog();
    await uploadForPreview(dialog, importProgress());
    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    // Its one level has no plan: asked first, and the owner imports without its subscriptions.
    const question = await screen.findByRole('alertdialog', {
      name: 'Import users without these subscriptions?',
    });
    expect(question.textContent).toContain(
      'Level “default” has no plan: the users are imported, but their subscriptions at this level are not.',
    );
    fireEvent.click(within(question).getByRole('button', { name: 'Import Without Them' }));
    expect(await findToast('The import is already running')).toBeTruthy();
    // Running elsewhere: the dialog follows it.
    expect(await dialog.findByText('10 of 153 rows')).toBeTruthy();
    expect(api.reads().length).toBeGreaterThan(0);
  });

  it('starts a level on the plan of its name, and asks before leaving subscriptions behind', async () => {
    const api = stubImportsApi({ reads: [importProgress({ status: 'running', doneRows: 1 })] });
    renderDialog();
    const dialog = await openDialog();
    // "Pro" by name, "2" by Basic's LEVEL_2 (a subscriptions import's plan), "9" by nothing.
    await uploadForPreview(dialog, importProgress({ levels: ['pro', '2', '9'], levelPlans: {} }));
    expect((await dialog.findByRole('combobox', { name: 'Level “pro”' })).textContent).toContain(
      'Pro (Lifetime)',
    );
    expect(dialog.getByRole('combobox', { name: 'Level “2”' }).textContent).toContain(
      'Basic (30 days)',
    );
    expect(dialog.getByRole('combobox', { name: 'Level “9”' }).textContent).toContain(
      'No subscription',
    );

    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    const question = await screen.findByRole('alertdialog', {
      name: 'Import users without these subscriptions?',
    });
    expect(question.textContent).toContain('Level “9” has no plan');
    // Choosing plans instead goes back to the form, and nothing has started.
    fireEvent.click(within(question).getByRole('button', { name: 'Choose Plans' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.starts()).toHaveLength(0);

    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Import Without Them',
      }),
    );
    await waitFor(() => expect(api.starts()).toHaveLength(1));
    expect(api.starts()[0]!.body).toEqual({ levelPlans: { pro: PRO.id, '2': BASIC.id } });
  });

  it("maps a subscription's level to a plan or a new one, and resumes with the levels only", async () => {
    const preview = importProgress({
      kind: 'subscriptions',
      format: 'seller-api-json',
      totalRows: 3,
      readableRows: 3,
      conflictRows: 1,
      unreadableRows: 0,
      conflicts: [
        {
          rowNumber: 3,
          reason: "row 3: the application already has a plan named 'Pro': level '2' leads to it",
        },
      ],
      unreadable: [],
      levels: ['1', '2'],
      levelPlans: { '2': PRO.id },
    });
    const api = stubImportsApi({
      kind: 'subscriptions',
      reads: [
        {
          ...preview,
          status: 'failed',
          doneRows: 1,
          createdRows: 1,
          // What the run mapped: the start's levels, the plan it made, and subscription names.
          levelPlans: { '1': BASIC.id, '2': PRO.id, default: BASIC.id, Pro: PRO.id },
          error: 'The import stopped on an unexpected error; start it again to continue.',
        },
        { ...preview, status: 'done', doneRows: 3, createdRows: 1, skippedRows: 2 },
      ],
    });
    renderDialog();
    const dialog = await openDialog();
    const upload = await uploadForPreview(dialog, preview, 'Subscriptions');
    expect(upload.url).toBe('/api/applications/7/imports?source=keyauth&kind=subscriptions');
    expect(dialog.getByText(/: 2 plans will be created\./)).toBeTruthy();
    const conflicts = within(
      dialog.getByRole('region', {
        name: /^Conflicts: subscriptions whose level leads to an existing plan/,
      }),
    );
    expect(conflicts.getByText('Row 3')).toBeTruthy();

    // The suggestion fills its level; a level left unmapped becomes a new plan.
    expect((await dialog.findByRole('combobox', { name: 'Level “1”' })).textContent).toContain(
      'A new plan',
    );
    expect(dialog.getByRole('combobox', { name: 'Level “2”' }).textContent).toContain('Pro');
    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(api.starts()).toHaveLength(1));
    expect(api.starts()[0]!.body).toEqual({ levelPlans: { '2': PRO.id } });

    expect(await findToast('The import stopped before the end')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Resume import' }));
    await waitFor(() => expect(api.starts()).toHaveLength(2));
    expect(api.starts()[1]!.body).toEqual({ levelPlans: { '1': BASIC.id, '2': PRO.id } });
    expect(await findToast('Import finished: 1 plan created, 2 skipped')).toBeTruthy();
  });

  it('lists the files to upload again and uploads one under its KeyAuth name', async () => {
    const preview = importProgress({
      kind: 'files',
      format: 'seller-api-json',
      totalRows: 2,
      readableRows: 2,
      conflictRows: 2,
      unreadableRows: 0,
      conflicts: [
        { rowNumber: 1, reason: "row 1: upload 'tnpraf.tar.gz' (KeyAuth file 891188) again" },
        { rowNumber: 2, reason: "row 2: upload 'setup.exe' (KeyAuth file 650285) again" },
      ],
      unreadable: [],
      levels: [],
      filesToUpload: [
        { rowNumber: 1, keyauthFileId: '891188', name: 'tnpraf.tar.gz', requiresSession: true },
        { rowNumber: 2, keyauthFileId: '650285', name: 'setup.exe', requiresSession: false },
      ],
    });
    const api = stubImportsApi({
      kind: 'files',
      preview,
      reads: [{ ...preview, status: 'done', doneRows: 2, skippedRows: 2 }],
    });
    renderDialog();
    const dialog = await openDialog();
    await uploadForPreview(dialog, preview, 'Files');
    expect(dialog.getByText(/: 2 files to upload again; the import creates none\./)).toBeTruthy();
    expect(dialog.getByText(FILE_IDS_CHANGE_NOTE)).toBeTruthy();
    expect(dialog.queryByRole('region', { name: /^Conflicts/ })).toBeNull();
    expect(dialog.queryByText('Plans for KeyAuth levels')).toBeNull();
    const files = within(dialog.getByRole('region', { name: 'Files to upload again (2)' }));
    expect(files.getAllByRole('listitem').map((row) => row.textContent)).toEqual([
      'tnpraf.tar.gzKeyAuth ID 891188 · Requires a sessionUpload',
      'setup.exeKeyAuth ID 650285 · No session neededUpload',
    ]);

    // The console's own upload, its name and session rule filled in from KeyAuth's.
    fireEvent.click(files.getByRole('button', { name: 'Upload setup.exe' }));
    const uploadDialog = within(await screen.findByRole('dialog', { name: 'Upload File' }));
    expect(uploadDialog.getByLabelText(/^Name/)).toHaveProperty('value', 'setup.exe');
    expect(
      uploadDialog.getByRole('switch', { name: 'Requires a session' }).getAttribute('aria-checked'),
    ).toBe('false');
    const stored: AppFile = {
      id: '40000000-0000-4000-8000-000000000002',
      name: 'setup.exe',
      version: '1.0.0',
      platform: null,
      size: 3,
      sha256: 'a'.repeat(64),
      requiresSession: false,
      downloadCount: 0,
      createdAt: '2026-06-10T12:00:05.000Z',
    };
    vi.mocked(uploadWithProgress).mockResolvedValueOnce(JSON.stringify(stored));
    fireEvent.change(uploadDialog.getByLabelText(/^File/), {
      target: { files: [new File(['exe'], 'setup.exe')] },
    });
    fireEvent.change(uploadDialog.getByLabelText(/^Version/), { target: { value: '1.0.0' } });
    fireEvent.click(uploadDialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload File' })).toBeNull());
    expect(vi.mocked(uploadWithProgress).mock.calls.at(-1)![0].url).toBe(
      '/api/applications/7/files?name=setup.exe&version=1.0.0&requiresSession=false',
    );
    expect(await files.findByText(stored.id)).toBeTruthy();
    // The upload's form is not the import's: nothing was started.
    expect(api.starts()).toHaveLength(0);

    fireEvent.click(dialog.getByRole('button', { name: 'Start import' }));
    expect(await findToast('Import finished: 2 files to upload again')).toBeTruthy();
  });

  it("shows the file's KeyAuth settings, and asks for the owner ID a secret needs", async () => {
    stubImportsApi({ reads: [importProgress()] });
    renderDialog();
    const dialog = await openDialog();
    await uploadForPreview(
      dialog,
      importProgress({
        keyauthSettings: {
          ownerId: null,
          name: null,
          hasSecret: true,
          outcome: 'pending',
          problem: null,
        },
      }),
    );
    const settings = within(dialog.getByRole('region', { name: 'KeyAuth settings in the file' }));
    const fact = (label: string) => settings.getByText(label).nextElementSibling?.textContent;
    expect(fact('Owner ID')).toBe('Not in the file');
    expect(fact('Secret')).toBe('In the file (not shown)');
    expect(fact('Outcome')).toBe('Written when the import starts');
    expect(settings.getByText(COMPATIBILITY_STAYS_OFF)).toBeTruthy();
    expect(settings.getByText(ENTER_OWNER_ID_AND_NAME)).toBeTruthy();
  });

  it('says why KeyAuth settings were refused, without asking for an owner ID', async () => {
    const problem = 'Another application already has this KeyAuth owner ID and name';
    const preview = importProgress({
      kind: 'application',
      format: 'table-csv',
      totalRows: 1,
      readableRows: 1,
      conflictRows: 0,
      unreadableRows: 0,
      conflicts: [],
      unreadable: [],
      levels: [],
      keyauthSettings: {
        ownerId: 'L8c1dMvM2e',
        name: 'Orbit',
        hasSecret: true,
        outcome: 'refused',
        problem,
      },
    });
    stubImportsApi({ kind: 'application', reads: [preview] });
    renderDialog();
    const dialog = await openDialog();
    await uploadForPreview(dialog, preview, 'Application settings');
    const settings = within(dialog.getByRole('region', { name: 'KeyAuth settings in the file' }));
    expect(settings.getByText('L8c1dMvM2e')).toBeTruthy();
    expect(settings.getByText('Not written')).toBeTruthy();
    expect(settings.getByText(problem)).toBeTruthy();
    expect(settings.queryByText(ENTER_OWNER_ID_AND_NAME)).toBeNull();
    expect(dialog.queryByText('Plans for KeyAuth levels')).toBeNull();
  });
});
