import type { ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import {
  licenseKeys,
  ownerAccounts,
  plans,
  shopConnections,
  shopOrders,
} from '../../db/schema/index.ts';
import { generateSigningKeyPair } from '../../lib/signing-keys.ts';
import { insertApplication } from '../../../test/factories.ts';
import { findFreePortBlock } from '../../../test/free-port-block.ts';
import { startRealServer } from '../../../test/real-server.ts';
import { crashTestDatabase, exited } from '../../../test/crash-test-database.ts';
import { newShopPublicId, sealShopSecret } from './shop-secrets.ts';

const ORDERS = 40;
const SECRET = 'sellix-crash-secret';

/**
 * Acknowledged means written, for shops: a burst of paid orders, `kill -9` of the server while
 * some are answered and others in flight, a restart, and the shop's retry of every delivery.
 * Every order answered before the kill was committed with its keys, and in the end every order
 * has exactly one set of keys however often it was delivered. The real process (main.ts) on a
 * real database (PGlite in DATA_DIR, or PostgreSQL with TEST_DATABASE_URL).
 */
describe('shop orders survive kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-shop-crash-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const children: ChildProcess[] = [];
  let postgresCleanup: (() => Promise<void>) | null = null;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await postgresCleanup?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('mints each order once when the server dies mid-burst and the shop retries', async () => {
    const { target, env, cleanup } = await crashTestDatabase(dataDir, 'latchkey_shop_crash');
    postgresCleanup = cleanup;

    // Seeded directly, before the server opens the database (PGlite allows one process).
    const publicId = newShopPublicId();
    const seeding = await openDatabase(target);
    const [owner] = await seeding.db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'shop-crash-owner', email: 'crash@example.com' })
      .returning();
    const application = await insertApplication(seeding.db, owner!.id, {
      ...generateSigningKeyPair(serverSecret),
    });
    const [plan] = await seeding.db
      .insert(plans)
      .values({ applicationId: application.id, name: 'Pro', durationDays: 30 })
      .returning();
    const [connection] = await seeding.db
      .insert(shopConnections)
      .values({
        applicationId: application.id,
        publicId,
        provider: 'sellix',
        name: 'Sellix',
        secretSealed: sealShopSecret(SECRET, serverSecret),
        secretHint: '…cret',
        products: [{ productId: 'pro', planId: plan!.id, quantity: 1 }],
      })
      .returning();
    await seeding.close();

    const port = await findFreePortBlock();
    const start = async () => {
      const child = await startRealServer({
        port,
        dataDir,
        serverSecret,
        firebaseProjectId: 'latchkey-shop-crash-test',
        timeoutMs: 30_000,
        env,
      });
      children.push(child);
      return child;
    };
    const orderIds = Array.from({ length: ORDERS }, (_, index) => `crash-${index}`);
    const deliver = async (orderId: string) => {
      const body = JSON.stringify({
        event: 'product:dynamic',
        data: { uniqid: orderId, customer_email: `${orderId}@example.com`, quantity: 1 },
      });
      const response = await fetch(`http://127.0.0.1:${port}/api/shops/${publicId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-sellix-product-id': 'pro',
          'x-sellix-signature': createHmac('sha512', SECRET).update(body).digest('hex'),
        },
        body,
      });
      return { status: response.status, keys: (await response.text()).split('\n') };
    };

    const first = await start();
    const acknowledged = new Map<string, string[]>();
    const burst = orderIds.map((orderId) =>
      deliver(orderId).then(
        (answer) => {
          if (answer.status === 200) acknowledged.set(orderId, answer.keys);
        },
        () => undefined,
      ),
    );
    // Killed once some are answered and (very likely) others are still in flight.
    const deadline = Date.now() + 15_000;
    while (acknowledged.size < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    first.kill('SIGKILL');
    await exited(first);
    await Promise.all(burst);
    expect(acknowledged.size).toBeGreaterThan(0);

    // Every acknowledged order is on disk with the keys it answered.
    const reading = await openDatabase(target);
    try {
      const rows = await reading.db
        .select({ providerOrderId: shopOrders.providerOrderId, id: shopOrders.id })
        .from(shopOrders)
        .where(eq(shopOrders.connectionId, connection!.id));
      const committed = new Set(rows.map((row) => row.providerOrderId));
      for (const orderId of acknowledged.keys()) expect(committed).toContain(orderId);
    } finally {
      await reading.close();
    }

    // The shop retries everything (a retry of an acknowledged one is a duplicate delivery).
    const second = await start();
    const retried = await Promise.all(orderIds.map(deliver));
    expect(retried.map((answer) => answer.status)).toEqual(Array(ORDERS).fill(200));
    for (const [orderId, keys] of acknowledged) {
      expect(retried[orderIds.indexOf(orderId)]!.keys).toEqual(keys);
    }
    second.kill('SIGTERM');
    await exited(second);

    const checking = await openDatabase(target);
    try {
      const rows = await checking.db
        .select()
        .from(shopOrders)
        .where(eq(shopOrders.connectionId, connection!.id));
      expect(rows.map((row) => row.providerOrderId).toSorted()).toEqual(orderIds.toSorted());
      expect(rows.every((row) => row.status === 'paid')).toBe(true);
      const keys = await checking.db
        .select({ orderId: licenseKeys.shopOrderId })
        .from(licenseKeys)
        .where(
          inArray(
            licenseKeys.shopOrderId,
            rows.map((row) => row.id),
          ),
        );
      expect(keys).toHaveLength(ORDERS);
      expect(new Set(keys.map((key) => key.orderId)).size).toBe(ORDERS);
    } finally {
      await checking.close();
    }
  }, 120_000);
});
