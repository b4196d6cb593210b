import { Readable } from 'node:stream';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { licenseCsvColumns, type LicenseFilter } from '@latchkey/contracts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { LicenseContext } from './license-context.ts';
import { licenseFilterWhere } from './license-filter.ts';
import { unsealLicenseKey } from './license-key-secrets.ts';
import { licenseRowColumns, newestKeysFirst } from './list-licenses.ts';
import { toLicenseResponse } from './to-license-response.ts';

/** Rows read per statement: memory stays at one batch whatever the number of keys. */
const ROWS_PER_BATCH = 1_000;

/**
 * The keys a list with these filters shows, as CSV with the whole keys (what a shop imports),
 * newest first. Streamed: batches of rows are read by keyset (created_at, id), each after the
 * previous one is written, so a million keys cost the memory of one batch and a slow reader
 * slows the reads rather than filling memory. Ownership is checked before the first byte.
 */
export async function exportLicensesCsv({
  ctx,
  input,
}: {
  ctx: LicenseContext;
  input: { applicationId: number } & LicenseFilter;
}): Promise<Readable> {
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  const where = licenseFilterWhere(ctx.db, application.id, input, {
    now,
    serverSecret: ctx.serverSecret,
  });
  async function* lines() {
    yield `${licenseCsvColumns.join(',')}\r\n`;
    let after: { createdAt: string; id: string } | null = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof readBatch>> = await readBatch(where, after);
      if (page.length === 0) return;
      let chunk = '';
      for (const row of page) {
        const license = {
          ...toLicenseResponse(row, now),
          key: unsealLicenseKey(row.keySealed, ctx.serverSecret),
        };
        chunk += `${licenseCsvColumns.map((column) => csvCell(license[column])).join(',')}\r\n`;
      }
      yield chunk;
      const last = page[page.length - 1]!;
      after = { createdAt: last.cursor, id: last.id };
    }
  }
  function readBatch(where: SQL, after: { createdAt: string; id: string } | null) {
    // A row comparison, which the (application_id, created_at, id) index serves as one range:
    // spelt as `a < x or (a = x and b < y)` PostgreSQL scanned from the newest key again for
    // every batch (172 s for a million keys in bench:scale).
    const beforeLast = after
      ? sql`(${licenseKeys.createdAt}, ${licenseKeys.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
      : undefined;
    return ctx.db
      .select({
        ...licenseRowColumns,
        keySealed: licenseKeys.keySealed,
        // The cursor as text: a Date would drop the microseconds and skip rows.
        cursor: sql<string>`${licenseKeys.createdAt}::text`,
      })
      .from(licenseKeys)
      .leftJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
      .where(beforeLast ? and(where, beforeLast) : where)
      .orderBy(...newestKeysFirst)
      .limit(ROWS_PER_BATCH);
  }
  ctx.log.info({ applicationId: application.id }, 'licence keys exported');
  return Readable.from(lines());
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. Any text a
 * spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first: OWASP's
 * list) gets a leading apostrophe, which spreadsheets hide. That includes keys: ours never
 * start so, but an imported one can be anything (a hostile export's `=HYPERLINK(…)`), and a
 * formula there could send the sheet's other cells, keys included, to a stranger.
 */
function csvCell(value: string | null): string {
  if (value === null) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
