import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_WINDOW_MS, PROBLEM_MEDIA_TYPE } from '@latchkey/contracts';
import { idempotencyKeys, type IdempotencyKeyRow } from '../../db/schema/index.ts';
import { problemOf } from '../../http/problem-details.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { createSecretSealer } from '../../lib/secret-sealing.ts';
import type { ManagementContext } from './management-guard.ts';

/** How long a retry waits for the first request with its key before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 25;

/**
 * A kept answer can hold secrets we issue (a generated licence key's whole text), and bearer
 * secrets are never stored in plain text (guide, security rules): answers are sealed at rest.
 */
const answerSealer = createSecretSealer('latchkey idempotent answer v1', 'idempotent answer');
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface WriteAnswer {
  status: number;
  body: unknown;
}

/**
 * A management API write, done at most once per Idempotency-Key. The key is
 * claimed by inserting its row before the work: of two identical requests racing, one inserts
 * and works, the other waits for that answer and repeats it (409 if it takes longer than
 * IDEMPOTENCY_WAIT_MS). The same key with another method, path or body is a 422. A refusal
 * (4xx) is kept and repeated like a success; a server fault frees the key, so a retry does the
 * work.
 *
 * The audit entry is the verb's: each owner verb writes it in the transaction of its write,
 * naming the token and the address (ctx.actor), so a write and its entry stand or fall
 * together.
 */
export async function answerManagementWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<WriteAnswer>,
): Promise<FastifyReply> {
  const ctx = request.management!;
  const { serverSecret } = ctx;
  const key = idempotencyKeyOf(request);
  if (key === null) return send(reply, await work());

  // An uploaded file (a KeyAuth import) is hashed as its bytes, not as a JSON rendering of them.
  const body =
    request.body instanceof Uint8Array ? request.body : JSON.stringify(request.body ?? null);
  const requestDigest = createHash('sha256')
    .update(`${request.method}\n${request.url}\n`)
    .update(body)
    .digest('hex');
  const claimed = await claimKey(ctx, key, requestDigest);
  if (claimed !== 'claimed') return replay(reply, claimed, serverSecret);

  let answer: WriteAnswer;
  try {
    answer = await work();
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode >= 500) {
      await ctx.db.delete(idempotencyKeys).where(keyWhere(ctx, key));
      throw error;
    }
    const problem = problemOf(error);
    await storeAnswer(ctx, key, { status: problem.status, body: problem }, PROBLEM_MEDIA_TYPE);
    throw error;
  }
  await storeAnswer(ctx, key, answer, 'application/json; charset=utf-8');
  return send(reply, answer);
}

function send(reply: FastifyReply, answer: WriteAnswer): FastifyReply {
  return reply.status(answer.status).send(answer.body);
}

function replay(reply: FastifyReply, row: IdempotencyKeyRow, serverSecret: string): FastifyReply {
  return reply
    .status(row.status!)
    .header('idempotent-replayed', 'true')
    .type(row.contentType ?? 'application/json; charset=utf-8')
    .send(answerSealer.unseal(row.body!, serverSecret));
}

/** The request's Idempotency-Key (POST only, as Stripe defines it), checked. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  if (request.method !== 'POST') return null;
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return header;
}

const keyWhere = (ctx: ManagementContext, key: string) =>
  and(eq(idempotencyKeys.apiTokenId, ctx.token.id), eq(idempotencyKeys.key, key));

/** 'claimed' when this request is the first with its key, else the first one's finished row. */
async function claimKey(
  ctx: ManagementContext,
  key: string,
  requestDigest: string,
): Promise<'claimed' | IdempotencyKeyRow> {
  const now = ctx.clock.now();
  // A key older than the window is forgotten: its next use is a new request.
  await ctx.db
    .delete(idempotencyKeys)
    .where(
      and(
        keyWhere(ctx, key),
        lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)),
      ),
    );
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({ apiTokenId: ctx.token.id, key, requestDigest, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return 'claimed';

  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const [row] = await ctx.db.select().from(idempotencyKeys).where(keyWhere(ctx, key));
    // Freed by a server fault meanwhile: this request takes the key over.
    if (!row) return claimKey(ctx, key, requestDigest);
    if (row.requestDigest !== requestDigest) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with another request; use a new key for a new request',
      );
    }
    if (row.status !== null) return row;
    if (Date.now() >= deadline) {
      throw new AppError(
        'CONFLICT',
        'A request with this Idempotency-Key is still running; retry later with the same key',
      );
    }
    await sleep(POLL_MS);
  }
}

async function storeAnswer(
  ctx: ManagementContext,
  key: string,
  answer: WriteAnswer,
  contentType: string,
): Promise<void> {
  await ctx.db
    .update(idempotencyKeys)
    .set({
      status: answer.status,
      body: answerSealer.seal(JSON.stringify(answer.body), ctx.serverSecret),
      contentType,
    })
    .where(keyWhere(ctx, key));
}
