import { connect, type Socket } from 'node:net';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ownerEventSchema, type OwnerEvent } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callClientApi,
  createAppUserViaApi,
  insertActivityLog,
  insertClientApplication,
} from '../../../test/factories.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../../test/test-app.ts';

/** How long a test waits for an event that should come within a feed interval or two. */
const EVENT_WAIT_MS = 5_000;
const FEED_INTERVAL_MS = 50;
const HEARTBEAT_MS = 150;
const MAX_BUFFERED_BYTES = 64 * 1024;

interface OpenStream {
  status: number;
  events: OwnerEvent[];
  comments: string[];
  /** Resolves with the first event (seen so far or later) that matches. */
  waitFor(match: (event: OwnerEvent) => boolean, timeoutMs?: number): Promise<OwnerEvent>;
  isEnded: Promise<void>;
  close(): void;
}

/** A console's EventSource, as bytes: parses `event:`/`data:` messages and comments. */
function openStream(port: number, owner: SignedInOwner): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      port,
      path: '/api/events',
      headers: { cookie: owner.cookie, accept: 'text/event-stream' },
    });
    request.on('error', reject);
    request.on('response', (response: IncomingMessage) => {
      const events: OwnerEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffered = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          let type = '';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) type = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (type) events.push(ownerEventSchema.parse({ type, data: JSON.parse(data) }));
        }
        for (const waiter of waiters) waiter();
      });
      const isEnded = new Promise<void>((done) => response.on('close', done));
      resolve({
        status: response.statusCode ?? 0,
        events,
        comments,
        isEnded,
        close: () => request.destroy(),
        waitFor(match, timeoutMs = EVENT_WAIT_MS) {
          return new Promise((found, fail) => {
            const check = () => {
              const event = events.find(match);
              if (!event) return;
              clearTimeout(timer);
              waiters.delete(check);
              found(event);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event in ${timeoutMs} ms: ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      });
    });
    request.end();
  });
}

async function readBody(response: IncomingMessage): Promise<string> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk as string;
  return body;
}

const waitUntil = async (condition: () => boolean, timeoutMs = EVENT_WAIT_MS) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('GET /api/events: the console live stream', () => {
  let port: number;
  let alice: SignedInOwner;
  let bob: SignedInOwner;

  const testApp = startTestAppForSuite({
    env: { SSE_MAX_CONNECTIONS_PER_ACCOUNT: '3' },
    ownerEventStream: {
      feedIntervalMs: FEED_INTERVAL_MS,
      heartbeatIntervalMs: HEARTBEAT_MS,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      maxDurationMs: 60_000,
    },
  });

  beforeAll(async () => {
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    port = (testApp.app.server.address() as AddressInfo).port;
    alice = await signInOwner(testApp.app);
    bob = await signInOwner(testApp.app);
  });

  it('needs a signed-in owner', async () => {
    const stream = await openStream(port, { ...alice, cookie: 'latchkey_session=forged' });
    expect(stream.status).toBe(401);
  });

  it("carries a client login to its owner's streams as the activity log shows it, and to no one else", async () => {
    const application = await insertClientApplication(testApp, alice.accountId);
    const [aliceStream, bobStream] = await Promise.all([
      openStream(port, alice),
      openStream(port, bob),
    ]);
    try {
      expect(aliceStream.status).toBe(200);
      const registered = await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'streamed', password: 'hunter2 hunter2' },
      });
      expect(registered.json()).toMatchObject({ success: true });

      const event = await aliceStream.waitFor(
        (each) => each.type === 'activity' && each.data.event === 'user_register',
      );
      const logPage = await testApp.app.inject({
        method: 'GET',
        url: `/api/activity-logs?applicationId=${application.id}&event=user_register`,
        headers: alice.headers,
      });
      expect(event.data).toEqual(logPage.json()[0]);
      await aliceStream.waitFor(
        (each) => each.type === 'stats' && each.data.applicationId === application.id,
      );
      // Bob's stream was open all along: a few more looks, and still nothing of Alice's.
      await new Promise((resolve) => setTimeout(resolve, FEED_INTERVAL_MS * 4));
      expect(bobStream.events).toEqual([]);
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it("tells the account's other consoles of a change made in one, and no other account", async () => {
    const application = await insertClientApplication(testApp, alice.accountId);
    const [otherTab, bobStream] = await Promise.all([
      openStream(port, alice),
      openStream(port, bob),
    ]);
    try {
      const user = await createAppUserViaApi(testApp.app, alice, application.id);
      await otherTab.waitFor(
        (each) =>
          each.type === 'app_user' &&
          each.data.userId === user.id &&
          each.data.change === 'created',
      );
      const paused = await testApp.app.inject({
        method: 'POST',
        url: `/api/applications/${application.id}/users/${user.id}/pause`,
        headers: alice.headers,
      });
      expect(paused.statusCode).toBe(200);
      await otherTab.waitFor((each) => each.type === 'app_user' && each.data.change === 'updated');
      const renamed = await testApp.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}`,
        headers: alice.headers,
        payload: { name: 'Renamed live' },
      });
      expect(renamed.statusCode).toBe(200);
      await otherTab.waitFor(
        (each) =>
          each.type === 'application' &&
          each.data.applicationId === application.id &&
          each.data.change === 'updated',
      );
      // A refused change tells nobody.
      const refused = await testApp.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}`,
        headers: bob.headers,
        payload: { name: 'Not yours' },
      });
      expect(refused.statusCode).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, FEED_INTERVAL_MS * 4));
      expect(bobStream.events).toEqual([]);
    } finally {
      otherTab.close();
      bobStream.close();
    }
  });

  it('refuses the stream past the per-account cap with 429, and takes one again once one closes', async () => {
    const owner = await signInOwner(testApp.app);
    const open = await Promise.all([1, 2, 3].map(() => openStream(port, owner)));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({ port, path: '/api/events', headers: { cookie: owner.cookie } })
        .on('response', resolve)
        .on('error', reject)
        .end();
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(await readBody(refused))).toMatchObject({ code: 'RATE_LIMITED' });
    // Another account is not counted against this one.
    const other = await openStream(port, await signInOwner(testApp.app));
    expect(other.status).toBe(200);
    other.close();

    open[0]!.close();
    await waitUntil(() => testApp.app.ownerEvents.listenerCount(owner.accountId) === 2);
    const again = await openStream(port, owner);
    expect(again.status).toBe(200);
    for (const stream of [...open, again]) stream.close();
  });

  it('sends a heartbeat comment, and ends the stream when its session is signed out', async () => {
    const owner = await signInOwner(testApp.app);
    const stream = await openStream(port, owner);
    await waitUntil(() => stream.comments.includes('heartbeat'));
    const signedOut = await testApp.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: owner.headers,
    });
    expect(signedOut.statusCode).toBeLessThan(400);
    await stream.isEnded;
    expect(testApp.app.ownerEvents.listenerCount(owner.accountId)).toBe(0);
  });

  it('drops a reader that stops reading rather than buffering for it without limit', async () => {
    const owner = await signInOwner(testApp.app);
    const fastReader = await openStream(port, owner);
    // A client that sends its request and then never reads a byte.
    const slowSocket: Socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => slowSocket.once('connect', resolve));
    slowSocket.pause();
    slowSocket.write(
      `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${owner.cookie}\r\n\r\n`,
    );
    await waitUntil(() => testApp.app.ownerEvents.listenerCount(owner.accountId) === 2);

    // Far more than the socket buffers of the loopback can hold, in events of 8 KB.
    const bulky: OwnerEvent = {
      type: 'bulk_progress',
      data: {
        operationId: 'x'.repeat(8 * 1024),
        applicationId: 1,
        action: 'pause',
        total: 1,
        done: 0,
        skipped: 0,
        isFinished: false,
        error: null,
      },
    };
    let sent = 0;
    while (testApp.app.ownerEvents.listenerCount(owner.accountId) === 2 && sent < 20_000) {
      await testApp.app.ownerEvents.publish(owner.accountId, bulky);
      sent += 1;
      // Let the sockets drain what they can between events, as real time would.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(testApp.app.ownerEvents.listenerCount(owner.accountId)).toBe(1);
    // The reader that kept up is still served, and got everything.
    await waitUntil(() => fastReader.events.length >= sent);
    expect(sent).toBeGreaterThan(MAX_BUFFERED_BYTES / (8 * 1024));
    slowSocket.destroy();
    fastReader.close();
  });
});

describe('the live stream across two instances on one database', () => {
  let first: TestApp;
  let second: TestApp;
  let port: number;
  let owner: SignedInOwner;

  beforeAll(async () => {
    first = await createTestApp({
      ownerEventStream: { feedIntervalMs: FEED_INTERVAL_MS, maxDurationMs: 60_000 },
    });
    second = await createTestApp({
      database: first.database,
      env: { SERVER_SECRET: first.config.serverSecret },
      ownerEventStream: { feedIntervalMs: FEED_INTERVAL_MS, maxDurationMs: 60_000 },
    });
    await first.app.listen({ port: 0, host: '127.0.0.1' });
    port = (first.app.server.address() as AddressInfo).port;
    owner = await signInOwner(first.app);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("delivers a change made through one instance, and a client's login served by it, to a console on the other", async () => {
    const application = await insertClientApplication(first, owner.accountId);
    const stream = await openStream(port, owner);
    try {
      expect(stream.status).toBe(200);
      const user = await createAppUserViaApi(second.app, owner, application.id);
      await stream.waitFor((each) => each.type === 'app_user' && each.data.userId === user.id);
      const registered = await callClientApi(second.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'elsewhere', password: 'hunter2 hunter2' },
      });
      expect(registered.json()).toMatchObject({ success: true });
      const event = await stream.waitFor(
        (each) => each.type === 'activity' && each.data.event === 'user_register',
      );
      expect(event.data).toMatchObject({ applicationId: application.id, username: 'elsewhere' });
    } finally {
      stream.close();
    }
  });

  // PGlite has one session: a transaction held open there would hold every other statement.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'delivers a row whose transaction took its id before a later row committed',
    async () => {
      const application = await insertClientApplication(first, owner.accountId);
      const stream = await openStream(port, owner);
      try {
        let commit!: () => void;
        const isCommitAllowed = new Promise<void>((resolve) => (commit = resolve));
        let hasInserted!: () => void;
        const isInserted = new Promise<void>((resolve) => (hasInserted = resolve));
        const slowTransaction = first.database.db.transaction(async (tx) => {
          await insertActivityLog(tx as unknown as typeof first.database.db, {
            applicationId: application.id,
            event: 'login_failed',
            success: false,
            username: 'late-commit',
          });
          hasInserted();
          await isCommitAllowed;
        });
        await isInserted;
        await insertActivityLog(first.database.db, {
          applicationId: application.id,
          event: 'user_login',
          success: true,
          username: 'early-commit',
        });
        await stream.waitFor(
          (each) => each.type === 'activity' && each.data.username === 'early-commit',
        );
        commit();
        await slowTransaction;
        await stream.waitFor(
          (each) => each.type === 'activity' && each.data.username === 'late-commit',
        );
      } finally {
        stream.close();
      }
    },
  );
});
