import { importKinds, importLimits, type ImportProgress } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  conflictsTitle,
  describeImportDone,
  describePreviewOutcome,
  describeLevel,
  describeProblemReason,
  describeRowProgress,
  findUnmappedLevels,
  hasLevels,
  IMPORT_FILE_EMPTY,
  IMPORT_FILE_REQUIRED,
  IMPORT_FILE_TOO_LARGE,
  IMPORT_NOTHING_READABLE,
  IMPORT_KIND_LABELS,
  levelPlansOfLevels,
  progressPercent,
  rowsToCreate,
  toLevelPlansRequest,
  unlistedCount,
  validateImportFile,
  validateLevelPlans,
} from './import-display.ts';

const PLAN = '10000000-0000-4000-8000-000000000001';

function progress(overrides: Partial<ImportProgress> = {}): ImportProgress {
  return {
    id: '30000000-0000-4000-8000-000000000001',
    source: 'keyauth',
    kind: 'users',
    format: 'panel-json',
    status: 'previewed',
    totalRows: 100_000,
    readableRows: 99_000,
    conflictRows: 250,
    unreadableRows: 1_000,
    doneRows: 0,
    createdRows: 0,
    skippedRows: 0,
    conflicts: [],
    unreadable: [],
    levels: ['1', '2'],
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

/** A File of `size` bytes without allocating them. */
function fileOfSize(size: number): File {
  const file = new File(['x'], 'export.json');
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('import display', () => {
  it('wants a file that is neither empty nor over the server limit', () => {
    expect(validateImportFile(null)).toBe(IMPORT_FILE_REQUIRED);
    expect(validateImportFile(fileOfSize(0))).toBe(IMPORT_FILE_EMPTY);
    expect(validateImportFile(fileOfSize(importLimits.maxFileBytes + 1))).toBe(
      IMPORT_FILE_TOO_LARGE,
    );
    expect(IMPORT_FILE_TOO_LARGE).toContain('64 MB');
    expect(validateImportFile(fileOfSize(importLimits.maxFileBytes))).toBeNull();
  });

  it('counts what will be created, and the problems the answer left unlisted', () => {
    expect(rowsToCreate(progress())).toBe(98_750);
    expect(unlistedCount(100, 250)).toBe(150);
    expect(unlistedCount(3, 3)).toBe(0);
  });

  it("drops a reason's own row number, which the list shows beside it", () => {
    expect(describeProblemReason({ rowNumber: 4, reason: 'row 4: username is missing' })).toBe(
      'username is missing',
    );
    const subscription = 'subscription 2 (in the "subscription" list): no user';
    expect(describeProblemReason({ rowNumber: 2, reason: subscription })).toBe(subscription);
    expect(describeProblemReason({ rowNumber: 5, reason: 'row 4: duplicate' })).toBe(
      'row 4: duplicate',
    );
  });

  it('needs a plan for every level of keys, none for users', () => {
    const keys = progress({ kind: 'keys', levels: ['1', ''] });
    expect(findUnmappedLevels(keys.levels, { '1': PLAN })).toEqual(['']);
    expect(validateLevelPlans(keys, { '1': PLAN })).toBe(
      'Choose a plan for every level of the keys: Keys without a level',
    );
    expect(validateLevelPlans(keys, { '1': PLAN, '': PLAN })).toBeNull();
    expect(validateLevelPlans(progress(), {})).toBeNull();
    expect(validateLevelPlans(progress({ readableRows: 0 }), {})).toBe(IMPORT_NOTHING_READABLE);
  });

  it('sends only the levels given a plan', () => {
    expect(toLevelPlansRequest({ '1': PLAN, '2': '' })).toEqual({ '1': PLAN });
  });

  it('names levels as the vendor knows them', () => {
    expect(describeLevel('default')).toBe('Level “default”');
    expect(describeLevel('')).toBe('Keys without a level');
  });

  it('says the progress in rows, and the outcome in its own nouns', () => {
    const running = progress({ status: 'running', doneRows: 12_000, readableRows: 100_000 });
    expect(describeRowProgress(running)).toBe('12,000 of 100,000 rows');
    expect(progressPercent(running)).toBe(12);
    expect(progressPercent(progress({ status: 'done', readableRows: 0 }))).toBe(100);
    expect(describeImportDone(progress({ createdRows: 1, skippedRows: 2 }))).toBe(
      'Import finished: 1 user created, 2 skipped',
    );
    expect(describeImportDone(progress({ kind: 'keys', createdRows: 3_000 }))).toBe(
      'Import finished: 3,000 licence keys created, 0 skipped',
    );
  });

  it('needs no plan for a subscription level: one left without becomes a new plan', () => {
    const subscriptions = progress({ kind: 'subscriptions', levels: ['1', '2'] });
    expect(validateLevelPlans(subscriptions, {})).toBeNull();
    expect(hasLevels('subscriptions')).toBe(true);
    expect(hasLevels('variables')).toBe(false);
  });

  it("resumes with the file's levels only, not the subscription names a run mapped", () => {
    const ran = progress({
      kind: 'subscriptions',
      levels: ['1', '2'],
      levelPlans: { '1': PLAN, '2': PLAN, Premium: PLAN, default: PLAN },
    });
    expect(levelPlansOfLevels(ran)).toEqual({ '1': PLAN, '2': PLAN });
  });

  it('names every kind, and titles its conflicts by what they are', () => {
    const labels = importKinds.map((kind) => IMPORT_KIND_LABELS[kind]);
    expect(new Set(labels).size).toBe(importKinds.length);
    const titles = importKinds.map(conflictsTitle);
    expect(new Set(titles).size).toBe(importKinds.length);
    expect(conflictsTitle('variables')).toBe('Conflicts: variables the application already has');
    expect(conflictsTitle('blacklist')).toBe('Conflicts: entries the blacklist already has');
  });

  it('says what each kind makes: plans, files to upload again, KeyAuth settings', () => {
    const subscriptions = progress({ kind: 'subscriptions', readableRows: 3, conflictRows: 1 });
    expect(describePreviewOutcome(subscriptions)).toBe('2 plans will be created');
    expect(
      describeImportDone({ ...subscriptions, status: 'done', createdRows: 2, skippedRows: 1 }),
    ).toBe('Import finished: 2 plans created, 1 skipped');

    const files = progress({ kind: 'files', readableRows: 2, conflictRows: 2 });
    expect(describePreviewOutcome(files)).toBe('2 files to upload again; the import creates none');
    expect(describeImportDone({ ...files, status: 'done', skippedRows: 2 })).toBe(
      'Import finished: 2 files to upload again',
    );

    const settings = {
      ownerId: 'L8c1dMvM2e',
      name: 'Orbit',
      hasSecret: true,
      outcome: 'written',
      problem: null,
    } as const;
    const application = progress({ kind: 'application', readableRows: 1, conflictRows: 0 });
    expect(describePreviewOutcome(application)).toBe(
      "the application's KeyAuth settings are written when it starts",
    );
    expect(describeImportDone({ ...application, keyauthSettings: settings, createdRows: 1 })).toBe(
      'Import finished: KeyAuth settings written',
    );
    expect(
      describeImportDone({
        ...application,
        keyauthSettings: { ...settings, outcome: 'refused', problem: 'Taken' },
      }),
    ).toBe('Import finished: KeyAuth settings not written');

    const variables = progress({ kind: 'variables', createdRows: 1, skippedRows: 0 });
    expect(describeImportDone(variables)).toBe('Import finished: 1 variable created, 0 skipped');
  });
});
