import { asc, eq } from 'drizzle-orm';
import { codeFileNames } from '@latchkey/contracts';
import { codeFiles, codeFileVersions, type CodeFileRow } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { codeFileSeeds } from './code-file-seeds.ts';

/**
 * The account's three reference documents, seeded on first read. Two first reads at once
 * both try the insert; the primary key lets one win, and only the winner writes version 1.
 */
export async function ensureCodeFiles({ ctx }: { ctx: OwnerContext }): Promise<CodeFileRow[]> {
  const existing = await readCodeFiles(ctx);
  if (existing.length === codeFileNames.length) return existing;
  const present = new Set(existing.map((row) => row.name));
  const missing = codeFileNames.filter((name) => !present.has(name));
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(codeFiles)
      .values(
        missing.map((name) => ({
          ownerAccountId: ctx.account.id,
          name,
          content: codeFileSeeds[name],
          version: 1,
          updatedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ name: codeFiles.name });
    if (inserted.length === 0) return;
    await tx.insert(codeFileVersions).values(
      inserted.map(({ name }) => ({
        ownerAccountId: ctx.account.id,
        name,
        version: 1,
        content: codeFileSeeds[name],
        origin: 'seed' as const,
        createdAt: now,
      })),
    );
  });
  return readCodeFiles(ctx);
}

async function readCodeFiles(ctx: OwnerContext): Promise<CodeFileRow[]> {
  const rows = await ctx.db
    .select()
    .from(codeFiles)
    .where(eq(codeFiles.ownerAccountId, ctx.account.id))
    .orderBy(asc(codeFiles.name));
  // The catalogue's order, which is the order of the editor's file list.
  return rows.sort((a, b) => codeFileNames.indexOf(a.name) - codeFileNames.indexOf(b.name));
}
