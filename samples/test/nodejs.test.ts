import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, eq } from 'drizzle-orm';
import {
  FORGOT_PASSWORD_ANSWER,
  VERIFICATION_RESEND_ANSWER,
  type AppFile,
} from '@latchkey/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appUserSessions, mailMessages } from '../../apps/server/src/db/schema/index.ts';
import { clientMessages } from '../../apps/server/src/modules/client-api/client-outcomes.ts';
import { installTypeScriptSdk } from '../../sdks/test/installed-typescript-sdk.ts';
import { replaceConstant, startLiveLatchkey, type LiveLatchkey } from './live-latchkey.ts';
import { startTamperingProxy } from './tampering-proxy.ts';

/**
 * The Node.js sample as a vendor gets it: rendered by the server for a live application,
 * written to disk beside an installed @latchkey/client (built, packed and installed from its
 * tarball, as a vendor installs it) and run with the real `node`, driven through standard input
 * and read from standard output, while the server's own records (live session count, session
 * rows) say whether it really did what it printed.
 */

// The folder with the SDK installed in node_modules: each run's folder is made inside it, so
// the sample's `import '@latchkey/client'` resolves there, and nothing else lies beside it.
let sdk: Awaited<ReturnType<typeof installTypeScriptSdk>>;
beforeAll(async () => {
  sdk = await installTypeScriptSdk();
});
afterAll(() => sdk?.remove());

const WAIT_MS = 15_000;
const messages = {
  loginSuccessMessage: 'Welcome back (sample test)',
  loginFailedMessage: 'Those details do not match (sample test)',
  hwidMismatchMessage: 'This licence lives on another machine (sample test)',
};

interface RunningSample {
  process: ChildProcessWithoutNullStreams;
  /** The folder the program runs from (its own file is all it holds at the start). */
  directory: string;
  output(): string;
  /** Where the output ends now: wait for text printed after this point. */
  mark(): number;
  /** Resolves with the end of the first match at or after `from`; rejects after `WAIT_MS`. */
  waitFor(text: string, from?: number): Promise<number>;
  send(line: string): void;
  /** Closes standard input (the user leaves) and waits for the exit code. */
  end(): Promise<number | null>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** A server time as the sample shows it in Asia/Kolkata (+05:30): the minute, rounded up. */
const shownInKolkata = (iso: string) => {
  const minute = Math.ceil(Date.parse(iso) / 60_000) * 60_000;
  return new Date(minute + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
};

describe('Node.js sample against a live Latchkey', () => {
  let live: LiveLatchkey;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let workDirectory: string;
  let code: string;
  let runCount = 0;

  beforeAll(async () => {
    live = await startLiveLatchkey();
    proxy = await startTamperingProxy(live.baseUrl);
    await live.updateApplication(messages);
    workDirectory = await mkdtemp(join(sdk.consumerDir, 'latchkey-nodejs-sample-'));
    const rendered = await live.renderSample('nodejs');
    code = replaceConstant(rendered, 'HEARTBEAT_INTERVAL_SECONDS', 1);
    code = replaceConstant(code, 'VERIFY_INTERVAL_SECONDS', 1);
  });

  // Counted from each test's start, so a session left open by a failed test cannot fail the next.
  let liveSessionsBefore = 0;
  beforeEach(async () => {
    liveSessionsBefore = await live.activeSessionCount();
  });
  /** The application's live sessions (as the console shows them) opened during this test. */
  const newLiveSessions = async () => (await live.activeSessionCount()) - liveSessionsBefore;

  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
    proxy.state.tamper = false;
    proxy.state.tamperPathPrefix = null;
  });

  afterAll(async () => {
    await proxy?.close();
    await live?.close();
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  });

  const newHome = async () => {
    runCount += 1;
    const home = join(workDirectory, `home-${runCount}`);
    await mkdir(home);
    return home;
  };

  const savedSessionFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.json`);

  const startSample = async (
    home: string,
    source = code,
    extraEnv: Record<string, string> = {},
  ): Promise<RunningSample> => {
    runCount += 1;
    const directory = join(workDirectory, `run-${runCount}`);
    await mkdir(directory);
    const file = join(directory, 'latchkey-client.mjs');
    await writeFile(file, source);
    const child = spawn(process.execPath, [file], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...extraEnv },
    });
    running.add(child);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (exitCode) => {
        running.delete(child);
        resolve(exitCode);
      }),
    );
    let hasExited = false;
    void exited.then(() => (hasExited = true));

    return {
      process: child,
      directory,
      output: () => output,
      mark: () => output.length,
      waitFor: (text, from = 0) =>
        new Promise<number>((resolve, reject) => {
          const startedAt = Date.now();
          const check = () => {
            const index = output.indexOf(text, from);
            if (index >= 0) return resolve(index + text.length);
            if (hasExited || Date.now() - startedAt > WAIT_MS) {
              return reject(
                new Error(
                  `${hasExited ? 'exited' : 'timed out'} waiting for ${JSON.stringify(text)}; output:\n${output}`,
                ),
              );
            }
            setTimeout(check, 25);
          };
          check();
        }),
      send: (line) => child.stdin.write(`${line}\n`),
      end: async () => {
        child.stdin.end();
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`did not exit; output:\n${output}`)), WAIT_MS),
        );
        return Promise.race([exited, timeout]);
      },
    };
  };

  /** Types a username and password at the prompts that follow `from`. */
  const logIn = async (
    sample: RunningSample,
    username: string,
    password: string,
    from = sample.mark(),
  ) => {
    const afterUsernamePrompt = await sample.waitFor('Username: ', from);
    sample.send(username);
    await sample.waitFor('Password: ', afterUsernamePrompt);
    sample.send(password);
    return afterUsernamePrompt;
  };

  const sessionsOf = (userId: string) =>
    live.testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, userId));

  const waitUntil = (assertion: () => Promise<void>) =>
    vi.waitFor(assertion, { timeout: WAIT_MS, interval: 100 });

  it('logs in, verifies, starts a session with heartbeats, answers status and help, and logs out', async () => {
    const user = await live.createEndUser();
    const home = await newHome();
    const sample = await startSample(home);

    const from = await logIn(sample, user.username, user.password, 0);
    await sample.waitFor(`Login Successful: ${messages.loginSuccessMessage}`, from);
    await sample.waitFor('[latchkey] session started (sess_', from);
    const mainScreen = await sample.waitFor('> ', from);
    expect(sample.output()).toContain(`User ID:       ${user.id}`);
    expect(sample.output()).toContain('Entitlements:  none\nSubscriptions: none\n');
    expect(await newLiveSessions()).toBe(1);
    // The password never reaches the output, nor does the whole session token.
    expect(sample.output()).not.toContain(user.password);

    await waitUntil(async () => {
      const [session] = await sessionsOf(user.id);
      expect(session!.lastHeartbeatAt.getTime()).toBeGreaterThan(session!.startedAt.getTime());
    });
    await sample.waitFor('[latchkey] heartbeat ok', mainScreen);
    await sample.waitFor('[latchkey] verify ok', mainScreen);
    expect(JSON.parse(readFileSync(savedSessionFile(home), 'utf8'))).toMatchObject({
      user_id: user.id,
    });

    let mark = sample.mark();
    sample.send('status');
    await sample.waitFor('Verify failures: 0/3', mark);
    expect(sample.output().slice(mark)).toContain(`${user.username} (${user.id})`);
    expect(sample.output().slice(mark)).toMatch(/Session: +sess_\w{3}… since/);

    mark = sample.mark();
    sample.send('help');
    await sample.waitFor('  logout ', mark);
    expect(sample.output().slice(mark)).toContain('  status ');

    mark = sample.mark();
    sample.send('logout');
    await sample.waitFor('You have been logged out.', mark);
    await sample.waitFor('Username: ', mark);
    const [session] = await sessionsOf(user.id);
    expect(session).toMatchObject({ endReason: 'client' });
    expect(session!.endedAt).not.toBeNull();
    expect(await newLiveSessions()).toBe(0);
    expect(existsSync(savedSessionFile(home))).toBe(false);

    expect(await sample.end()).toBe(0);
  });

  it('asks again when a field is empty, and shows the application message for a wrong password', async () => {
    const user = await live.createEndUser();
    const sample = await startSample(await newHome());

    let from = await logIn(sample, user.username, '', 0);
    await sample.waitFor('Please provide both username and password', from);
    from = await logIn(sample, user.username, 'not the password', from);
    await sample.waitFor(`Login Failed: ${messages.loginFailedMessage}`, from);
    await sample.waitFor('Username: ', from);
    expect(sample.output()).not.toContain('Login Successful');
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await sample.end()).toBe(0);
  });

  it('refuses a login from another device under HWID lock, with the application message', async () => {
    await live.updateApplication({ hwidLockEnabled: true });
    try {
      const user = await live.createEndUser({ hwid: 'the-licensed-machine' });
      const sample = await startSample(await newHome());
      const from = await logIn(sample, user.username, user.password, 0);
      await sample.waitFor(`Hardware Mismatch: ${messages.hwidMismatchMessage}`, from);
      await sample.waitFor('Username: ', from);
      expect(sample.output()).not.toContain('Login Successful');
      expect(await sessionsOf(user.id)).toEqual([]);
      expect(await sample.end()).toBe(0);
    } finally {
      await live.updateApplication({ hwidLockEnabled: false });
    }
  });

  it('forces a logout after three failed verifies once the owner pauses the user', async () => {
    const user = await live.createEndUser();
    const home = await newHome();
    const sample = await startSample(home);
    const from = await logIn(sample, user.username, user.password, 0);
    const mainScreen = await sample.waitFor('[latchkey] session started', from);
    expect(await newLiveSessions()).toBe(1);

    await live.pauseEndUser(user.id);
    const expired = await sample.waitFor(
      'Your session has expired. Please login again.',
      mainScreen,
    );
    await sample.waitFor('Username: ', expired);
    const monitoring = sample.output().slice(mainScreen, expired);
    const failures = ['(1/3)', '(2/3)', '(3/3)'].map((count) =>
      monitoring.indexOf(`[latchkey] verify failed ${count} ACCOUNT_DISABLED`),
    );
    expect(failures.every((index) => index >= 0)).toBe(true);
    expect([...failures].sort((a, b) => a - b)).toEqual(failures);
    expect(monitoring).toContain('[latchkey] forced logout');
    expect(await newLiveSessions()).toBe(0);
    expect(existsSync(savedSessionFile(home))).toBe(false);

    // Monitoring stopped: no verify is attempted while the login prompt waits.
    const afterLogout = sample.mark();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(sample.output().slice(afterLogout)).not.toContain('verify failed');
    expect(await sample.end()).toBe(0);
  });

  it('refuses a tampered answer: no login, no session; the same answers untampered log in', async () => {
    const user = await live.createEndUser();
    const throughProxy = code.replaceAll(
      JSON.stringify(live.baseUrl),
      JSON.stringify(proxy.baseUrl),
    );
    expect(throughProxy).not.toBe(code);
    const sample = await startSample(await newHome(), throughProxy);

    proxy.state.tamper = true;
    let from = await logIn(sample, user.username, user.password, 0);
    await sample.waitFor('The server response could not be verified.', from);
    await sample.waitFor('Username: ', from);
    expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
    expect(sample.output()).toContain('[latchkey] response not verified');
    expect(sample.output()).not.toContain('Login Successful');
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await newLiveSessions()).toBe(0);

    proxy.state.tamper = false;
    from = await logIn(sample, user.username, user.password, from);
    await sample.waitFor('[latchkey] session started', from);
    expect(await newLiveSessions()).toBe(1);
    expect(await sample.end()).toBe(0);
  });

  it('resumes a saved session on the next start, and forgets it once it is refused', async () => {
    const user = await live.createEndUser();
    const home = await newHome();

    const first = await startSample(home);
    await logIn(first, user.username, user.password, 0);
    await first.waitFor('[latchkey] session started', 0);
    expect(await first.end()).toBe(0);
    // Leaving keeps the session open (no end call) and saved, with its token, for the next start.
    const [kept] = await sessionsOf(user.id);
    expect(kept).toMatchObject({ endedAt: null });
    expect(existsSync(savedSessionFile(home))).toBe(true);

    // The next start resumes that same session without the password: no login, no new row.
    const second = await startSample(home);
    await second.waitFor('Saved session verified.');
    await second.waitFor('[latchkey] session resumed');
    await second.waitFor('[latchkey] heartbeat ok');
    await second.waitFor('> ');
    expect(second.output()).not.toContain('Username: ');
    expect(second.output()).not.toContain('login ok');
    expect(await sessionsOf(user.id)).toMatchObject([{ id: kept!.id, endedAt: null }]);
    expect(await second.end()).toBe(0);

    await live.pauseEndUser(user.id);
    // The pause ended the session: the next start is refused it, forgets it and asks to log in.
    const third = await startSample(home);
    await third.waitFor('Username: ');
    expect(third.output()).toMatch(
      /\[latchkey\] saved session refused \((SESSION_INVALID|ACCOUNT_DISABLED)\)/,
    );
    expect(third.output()).not.toContain('Saved session verified.');
    expect(existsSync(savedSessionFile(home))).toBe(false);
    expect(await third.end()).toBe(0);
  });
  it('shows what is left of a usage meter, counts each use once, and names a used-up meter with when it resets', async () => {
    const user = await live.createEndUser();
    const meter = await live.grantTwoUseMeter(user.id);
    // The first of next month (UTC), as the sample shows it on a machine in Asia/Kolkata.
    const resets = `resets ${shownInKolkata(meter.resetsAt!)}`;
    const sample = await startSample(await newHome(), code, { TZ: 'Asia/Kolkata' });
    let from = await logIn(sample, user.username, user.password, 0);
    from = await sample.waitFor(`Usage:         exports: 2 of 2 left, ${resets}\n`, from);
    from = await sample.waitFor('> ', from);

    sample.send('use');
    from = await sample.waitFor(`Usage Counted: exports: 1 of 2 left, ${resets}\n`, from);
    from = await sample.waitFor('> ', from);
    sample.send('use');
    from = await sample.waitFor(`Usage Counted: exports: 0 of 2 left, ${resets}\n`, from);
    from = await sample.waitFor('> ', from);
    // A refusing meter counts nothing past its allowance; the code titles it, not the message.
    sample.send('use');
    from = await sample.waitFor(
      `Usage Limit Reached: ${clientMessages.meterExhausted} (${resets})\n`,
      from,
    );
    from = await sample.waitFor('> ', from);
    await live.expectTwoUsesCountedOnceEach(user.id);

    sample.send('status');
    await sample.waitFor(`Usage:           exports: 0 of 2 left, ${resets}\n`, from);
    expect(await sample.end()).toBe(0);
  });

  it("starts this machine's trial once: a second start, under another name, logs in the same account; names a trial not offered and one ended", async () => {
    // A machine of its own: each machine has one trial, whatever else ran on this one.
    const machineId = join(await newHome(), 'machine-id');
    writeFileSync(machineId, `${randomBytes(16).toString('hex')}\n`);
    const onItsMachine = replaceConstant(code, 'MACHINE_ID_FILES', JSON.stringify([machineId]));
    const sample = await startSample(await newHome(), onItsMachine, { TZ: 'Asia/Kolkata' });
    const startTrial = async (username: string, from: number) => {
      const atLogin = await sample.waitFor('Username: ', from);
      sample.send('/trial');
      await sample.waitFor('Trial username (optional): ', atLogin);
      sample.send(username);
      return atLogin;
    };

    // The application offers none yet: the code titles it, and the login prompt follows.
    let from = await startTrial('', 0);
    from = await sample.waitFor(`Trial Unavailable: ${clientMessages.trialUnavailable}\n`, from);
    expect(sample.output()).toContain('[latchkey] trial refused (TRIAL_UNAVAILABLE)\n');

    await live.offerTrial(7, ['PRO']);
    try {
      from = await startTrial('node_trial_user', from);
      from = await sample.waitFor('[latchkey] session started', from);
      from = await sample.waitFor('> ', from);
      const account = await live.expectTrialAccount('node_trial_user', 7);
      // As after a login, and the trial says when it ends (in local time: Kolkata, +05:30).
      const active = `Trial Active: ${messages.loginSuccessMessage} (trial ends ${shownInKolkata(account.expiresAt!)})\n`;
      expect(sample.output()).toContain(active);
      expect(sample.output()).toContain(`User ID:       ${account.id}\n`);
      expect(sample.output()).toContain(`Expires:       ${account.expiresAt}\n`);
      expect(sample.output()).toContain('Entitlements:  PRO\n');
      expect(await sessionsOf(account.id)).toMatchObject([{ endedAt: null }]);
      sample.send('logout');
      from = await sample.waitFor('You have been logged out.\n', from);

      // The same machine again, under another name: the trial it had, not a second one.
      from = await startTrial('node_second_trial', from);
      from = await sample.waitFor(active, from);
      from = await sample.waitFor('=== Welcome, node_trial_user ===\n', from);
      from = await sample.waitFor(`User ID:       ${account.id}\n`, from);
      from = await sample.waitFor('> ', from);
      await live.expectTrialAccount('node_trial_user', 7);
      expect(await live.findEndUser('node_second_trial')).toBeUndefined();
      expect(await sessionsOf(account.id)).toHaveLength(2);
      sample.send('logout');
      from = await sample.waitFor('You have been logged out.\n', from);

      // Its time is up: the machine's trial has ended, and says since when.
      const ended = new Date(Date.now() - 3_600_000).toISOString();
      await live.updateEndUser(account.id, { expiresAt: ended });
      from = await startTrial('node_third_trial', from);
      from = await sample.waitFor(
        `Trial Ended: ${clientMessages.trialEnded} (ended ${shownInKolkata(ended)})\n`,
        from,
      );
      await sample.waitFor('Username: ', from);
      expect(await live.findEndUser('node_third_trial')).toBeUndefined();
      expect(await newLiveSessions()).toBe(0);
      expect(await sample.end()).toBe(0);
    } finally {
      await live.offerTrial(null);
    }
  });

  it('names every seat in use with when one frees, borrows the seat for three days with its licence, and returns it', async () => {
    const user = await live.createEndUser();
    await live.grantFloatingPlan(user.id, { seats: 1, maxBorrowDays: 7 });
    // Another computer holds the only seat: the login is refused, saying when that lease lapses.
    expect(await live.loginFrom(user, 'another-computer')).toBe('OK');
    const [other] = await live.seatsOf(user.id);
    const home = await newHome();
    const sample = await startSample(home, code, { TZ: 'Asia/Kolkata' });
    let from = await logIn(sample, user.username, user.password, 0);
    from = await sample.waitFor(
      `All Seats In Use: ${clientMessages.noSeatAvailable} (next seat free by ${shownInKolkata(other!.expiresAt)})\n`,
      from,
    );
    await live.freeSeat(other!.id);
    from = await logIn(sample, user.username, user.password, from);
    from = await sample.waitFor('[latchkey] session started', from);
    from = await sample.waitFor('> ', from);

    // More days than the plan allows are refused, titled by the code.
    sample.send('borrow 8');
    from = await sample.waitFor(
      `Borrowing Not Allowed: ${clientMessages.borrowNotAllowed}\n`,
      from,
    );
    sample.send('borrow 3');
    from = await sample.waitFor(
      `Seat Borrowed: ${clientMessages.seatBorrowed} (borrowed until `,
      from,
    );
    // The borrowed licence is stored where a checked-out one is, lasting the borrow.
    const offlineFile = join(
      home,
      '.latchkey',
      `${live.application.apiKey.slice(0, 12)}.offline.json`,
    );
    const { license } = JSON.parse(readFileSync(offlineFile, 'utf8')) as { license: string };
    const { valid_until: validUntil } = JSON.parse(
      Buffer.from(license.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { valid_until: string };
    from = await sample.waitFor(`${shownInKolkata(validUntil)})\n`, from);
    expect((Date.parse(validUntil) - Date.now()) / 86_400_000).toBeCloseTo(3, 2);
    const [borrowed] = await live.seatsOf(user.id);
    expect(Math.abs(Date.parse(borrowed!.borrowedUntil!) - Date.parse(validUntil))).toBeLessThan(
      1_000,
    );

    sample.send('return');
    await sample.waitFor(`Seat Returned: ${clientMessages.seatReturned}\n`, from);
    expect(await live.seatsOf(user.id)).toMatchObject([{ id: borrowed!.id, borrowedUntil: null }]);
    expect(existsSync(offlineFile)).toBe(false);
    expect(await sample.end()).toBe(0);
  });

  // Licence keys. Plans and keys are made through the owner API, as a vendor would.
  describe('licence keys', () => {
    let keys: (planId: string) => Promise<{ id: string; key: string }>;
    let proPlanId: string;
    let teamPlanId: string;

    beforeAll(async () => {
      const [pro, team] = await Promise.all([
        live.createPlan({
          name: 'Sample Pro',
          durationDays: 30,
          entitlements: ['PRO', 'EXPORT_PDF'],
          updatesForDays: 365,
        }),
        live.createPlan({ name: 'Sample Team', durationDays: null, entitlements: ['TEAM'] }),
      ]);
      proPlanId = pro.id;
      teamPlanId = team.id;
      keys = async (planId) => (await live.generateLicenseKeys(planId))[0]!;
    });

    it('registers with a key, shows its entitlements, redeems another onto the account, and names a used key', async () => {
      const [proKey, teamKey] = await Promise.all([keys(proPlanId), keys(teamPlanId)]);
      const username = 'sample_registered_with_key';
      const password = 'a long enough password';
      const sample = await startSample(await newHome());

      await sample.waitFor('type /register to create an account');
      let from = await sample.waitFor('Username: ');
      sample.send('/register');
      from = await sample.waitFor('New username: ', from);
      sample.send(username);
      from = await sample.waitFor('Password: ', from);
      sample.send(password);
      from = await sample.waitFor('E-mail (optional): ', from);
      sample.send('');
      from = await sample.waitFor('Licence key (optional): ', from);
      sample.send(proKey.key);
      from = await sample.waitFor('Registration Successful: Registration successful', from);
      // Then the same username and password log in, and the main screen shows the plan.
      from = await sample.waitFor(`Login Successful: ${messages.loginSuccessMessage}`, from);
      from = await sample.waitFor('[latchkey] session started', from);
      from = await sample.waitFor('Entitlements:  EXPORT_PDF, PRO\n', from);
      await sample.waitFor('Subscriptions: Sample Pro until 20', from);
      await sample.waitFor('Updates until: 20', from);
      from = await sample.waitFor('> ', from);
      const user = await live.findEndUser(username);
      expect(user).toBeDefined();
      expect(await live.subscriptionsOf(user!.id)).toMatchObject([
        { planName: 'Sample Pro', isActive: true, entitlements: ['EXPORT_PDF', 'PRO'] },
      ]);
      expect(await newLiveSessions()).toBe(1);

      sample.send('redeem');
      from = await sample.waitFor('Licence key: ', from);
      sample.send(teamKey.key);
      from = await sample.waitFor('Password: ', from);
      sample.send(password);
      from = await sample.waitFor('Licence Key Redeemed: Licence key redeemed', from);
      from = await sample.waitFor('Entitlements:  EXPORT_PDF, PRO, TEAM\n', from);
      from = await sample.waitFor('Sample Team (lifetime)', from);
      // The lifetime plan has no updates window: every release, whatever Pro's window says.
      from = await sample.waitFor('Updates:       every release\n', from);
      from = await sample.waitFor('> ', from);
      expect((await live.subscriptionsOf(user!.id)).map((held) => held.planName).sort()).toEqual([
        'Sample Pro',
        'Sample Team',
      ]);

      // The same key again: the code picks the title, the server's text follows it.
      sample.send('redeem');
      from = await sample.waitFor('Licence key: ', from);
      sample.send(teamKey.key);
      from = await sample.waitFor('Password: ', from);
      sample.send(password);
      from = await sample.waitFor('Licence Key Used: This licence key has already been used', from);
      from = await sample.waitFor('> ', from);

      sample.send('status');
      await sample.waitFor('Entitlements:    EXPORT_PDF, PRO, TEAM', from);
      await sample.waitFor('Updates:         every release', from);
      expect(sample.output()).not.toContain(password);
      expect(await sample.end()).toBe(0);
    });

    it('logs in with a key alone, names used and unknown keys, and says which entitlement is missing', async () => {
      const [proKey, spentKey] = await Promise.all([keys(proPlanId), keys(proPlanId)]);
      const holder = await live.createEndUser({ username: 'sample_spent_key_holder' });
      // Spent by a registered account: it cannot log in alone.
      await live.redeemLicenseKey(holder, spentKey.key);

      const sample = await startSample(await newHome());
      let from = await sample.waitFor('Username: ');
      sample.send('/key');
      from = await sample.waitFor('Licence key: ', from);
      sample.send(proKey.key);
      from = await sample.waitFor(`Login Successful: ${messages.loginSuccessMessage}`, from);
      from = await sample.waitFor('[latchkey] session started', from);
      from = await sample.waitFor(`=== Welcome, key-${proKey.id} ===`, from);
      from = await sample.waitFor('Entitlements:  EXPORT_PDF, PRO\n', from);
      from = await sample.waitFor('> ', from);
      const keyUser = await live.findEndUser(`key-${proKey.id}`);
      expect(await sessionsOf(keyUser!.id)).toHaveLength(1);
      expect(sample.output()).not.toContain(proKey.key);

      sample.send('logout');
      from = await sample.waitFor('Username: ', from);
      sample.send('/key');
      from = await sample.waitFor('Licence key: ', from);
      sample.send(spentKey.key);
      from = await sample.waitFor('Licence Key Used: This licence key has already been used', from);
      from = await sample.waitFor('Username: ', from);
      sample.send('/key');
      from = await sample.waitFor('Licence key: ', from);
      sample.send('NOT-A-REAL-KEY');
      from = await sample.waitFor('Invalid Licence Key: This licence key is not valid', from);
      await sample.waitFor('Username: ', from);
      expect(await sample.end()).toBe(0);

      // A program that needs TEAM: the key's user holds only PRO and EXPORT_PDF.
      const needsTeam = await startSample(
        await newHome(),
        replaceConstant(code, 'REQUIRED_ENTITLEMENTS', "['TEAM']"),
      );
      from = await needsTeam.waitFor('Username: ');
      needsTeam.send('/key');
      from = await needsTeam.waitFor('Licence key: ', from);
      needsTeam.send(proKey.key);
      from = await needsTeam.waitFor(
        'Feature Not Included: Your subscription does not include this feature (missing: TEAM)',
        from,
      );
      await needsTeam.waitFor('Username: ', from);
      expect(needsTeam.output()).not.toContain('[latchkey] session started');
      expect(await sessionsOf(keyUser!.id)).toHaveLength(1);
      expect(await needsTeam.end()).toBe(0);
    });

    it('asks for a key to register when the application requires one', async () => {
      await live.updateApplication({ licenseRequired: true });
      try {
        const sample = await startSample(await newHome());
        let from = await sample.waitFor('Username: ');
        sample.send('/register');
        from = await sample.waitFor('New username: ', from);
        sample.send('sample_without_key');
        from = await sample.waitFor('Password: ', from);
        sample.send('a long enough password');
        from = await sample.waitFor('E-mail (optional): ', from);
        sample.send('');
        from = await sample.waitFor('Licence key (optional): ', from);
        sample.send('');
        from = await sample.waitFor(
          'Licence Key Required: A licence key is required to register',
          from,
        );
        await sample.waitFor('Username: ', from);
        expect(await live.findEndUser('sample_without_key')).toBeUndefined();
        expect(await sample.end()).toBe(0);
      } finally {
        await live.updateApplication({ licenseRequired: false });
      }
    });
  });

  // Devices. Logins name this machine; `release` frees its seat through devices/reset.
  describe('devices', () => {
    const deviceDefaults = {
      hwidLockEnabled: false,
      selfServiceReset: false,
      resetCooldownHours: 168,
      maxDevices: 1,
    };
    afterEach(async () => {
      await live.updateApplication(deviceDefaults);
    });

    /** Types `release` and the password, from the main prompt after `from`. */
    const release = async (sample: RunningSample, password: string, from: number) => {
      sample.send('release');
      const passwordPrompt = await sample.waitFor('Password: ', from);
      sample.send(password);
      return passwordPrompt;
    };
    const nextReleaseOf = (text: string) => {
      const found = /You can release a device again at (\S+)\.\n/.exec(text);
      expect(found).not.toBeNull();
      return found![1]!;
    };

    it('names this machine, releases it (logged out; another machine may log in), then shows the cooldown and its time', async () => {
      await live.updateApplication({
        hwidLockEnabled: true,
        selfServiceReset: true,
        resetCooldownHours: 24,
      });
      const user = await live.createEndUser();
      const home = await newHome();
      const sample = await startSample(home);

      let from = await logIn(sample, user.username, user.password, 0);
      from = await sample.waitFor('[latchkey] session started', from);
      from = await sample.waitFor('> ', from);
      expect(await live.devicesOf(user.id)).toMatchObject([{ name: hostname() }]);
      expect(await live.loginFrom(user, 'another-machine')).toBe('HWID_MISMATCH');

      sample.send('help');
      from = await sample.waitFor(
        '  release  release this device (log in again from another machine)',
        from,
      );
      from = await release(sample, user.password, from);
      const releasedAt = Date.now();
      from = await sample.waitFor(
        'Device Released: Device released: you can now log in from another machine',
        from,
      );
      const loggedOut = await sample.waitFor('[latchkey] logged out (device released)', from);
      const nextRelease = nextReleaseOf(sample.output().slice(from, loggedOut));
      const hoursAhead = (Date.parse(nextRelease) - releasedAt) / 3_600_000;
      expect(hoursAhead).toBeGreaterThan(23.9);
      expect(hoursAhead).toBeLessThan(24.1);
      from = await sample.waitFor('log in again here or on another machine.', loggedOut);
      await sample.waitFor('Username: ', from);
      expect(await live.devicesOf(user.id)).toEqual([]);
      expect(await sessionsOf(user.id)).toMatchObject([{ endReason: 'device_released' }]);
      expect(await newLiveSessions()).toBe(0);
      expect(existsSync(savedSessionFile(home))).toBe(false);
      // The session was over: no end call was refused, and monitoring stopped with it.
      expect(sample.output()).not.toContain('Session end error');
      expect(await live.loginFrom(user, 'another-machine')).toBe('OK');

      // Back on this machine (a second seat now), a second release within the day is refused.
      await live.updateApplication({ maxDevices: 2 });
      from = await logIn(sample, user.username, user.password, from);
      from = await sample.waitFor('[latchkey] session started', from);
      from = await sample.waitFor('> ', from);
      from = await release(sample, user.password, from);
      from = await sample.waitFor('Reset Not Yet Available: You released a device recently', from);
      const prompt = await sample.waitFor('> ', from);
      expect(nextReleaseOf(sample.output().slice(from, prompt))).toBe(nextRelease);
      expect((await live.devicesOf(user.id)).map((device) => device.name).sort()).toEqual(
        [hostname(), null].sort(),
      );
      expect(await newLiveSessions()).toBe(1);
      expect(existsSync(savedSessionFile(home))).toBe(true);
      expect(sample.output()).not.toContain(user.password);
      expect(await sample.end()).toBe(0);
    });

    it('names refusals: reset not allowed, a wrong password, no such device; an empty password cancels', async () => {
      await live.updateApplication({ hwidLockEnabled: true, selfServiceReset: false });
      const user = await live.createEndUser();
      const sample = await startSample(await newHome());
      let from = await logIn(sample, user.username, user.password, 0);
      from = await sample.waitFor('> ', from);

      from = await release(sample, user.password, from);
      from = await sample.waitFor(
        'Reset Not Allowed: This application does not let you release devices yourself',
        from,
      );
      from = await sample.waitFor('> ', from);
      await live.updateApplication({ selfServiceReset: true });
      from = await release(sample, 'not the password', from);
      from = await sample.waitFor(`Release Failed: ${messages.loginFailedMessage}`, from);
      from = await sample.waitFor('> ', from);
      from = await release(sample, '', from);
      from = await sample.waitFor('Release cancelled.', from);
      from = await sample.waitFor('> ', from);
      expect(await live.devicesOf(user.id)).toHaveLength(1);
      expect(await newLiveSessions()).toBe(1);

      // Without HWID lock no device is bound: there is none to release, and no cooldown spent.
      await live.updateApplication({ hwidLockEnabled: false });
      const unbound = await live.createEndUser();
      sample.send('logout');
      from = await logIn(sample, unbound.username, unbound.password, from);
      from = await sample.waitFor('> ', from);
      from = await release(sample, unbound.password, from);
      from = await sample.waitFor(
        'Device Not Found: No device with this hardware id is bound to your account',
        from,
      );
      await sample.waitFor('> ', from);
      expect(await sample.end()).toBe(0);
    });
  });

  // Without SMTP_URL the test server's mail goes to its local mailbox: a queued row per message.
  it('asks for a reset link by username and by e-mail at /forgot, and shows the answer', async () => {
    const user = await live.createEndUser();
    const email = `${user.username}@example.com`;
    await live.updateEndUser(user.id, { email });
    const sample = await startSample(await newHome());

    let from = await sample.waitFor('/forgot if you forgot your password,', 0);
    for (const usernameOrEmail of [user.username, email.toUpperCase()]) {
      from = await sample.waitFor('Username: ', from);
      sample.send('/forgot');
      from = await sample.waitFor('Username or e-mail: ', from);
      sample.send(usernameOrEmail);
      from = await sample.waitFor(`Check Your E-mail: ${FORGOT_PASSWORD_ANSWER}`, from);
    }
    await sample.waitFor('Username: ', from);
    const mails = await live.testApp.database.db
      .select({ recipient: mailMessages.recipient })
      .from(mailMessages)
      .where(and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'password_reset')));
    expect(mails).toEqual([{ recipient: email }, { recipient: email }]);
    expect(await sample.end()).toBe(0);
  });

  it('names an unconfirmed address at login, and mails a new link to confirm it at /resend', async () => {
    await live.updateApplication({ requireVerifiedEmail: true });
    try {
      const user = await live.createEndUser();
      const email = `${user.username}@example.com`;
      await live.updateEndUser(user.id, { email });
      const sample = await startSample(await newHome());

      let from = await logIn(sample, user.username, user.password, 0);
      from = await sample.waitFor(`E-mail Not Verified: ${clientMessages.emailNotVerified}`, from);
      from = await sample.waitFor('Type /resend at the Username prompt', from);
      from = await sample.waitFor('Username: ', from);
      sample.send('/resend');
      from = await logIn(sample, user.username, user.password, from);
      from = await sample.waitFor(`Check Your E-mail: ${VERIFICATION_RESEND_ANSWER}`, from);
      await sample.waitFor('Username: ', from);
      expect(sample.output()).not.toContain('Login Successful');
      expect(await sessionsOf(user.id)).toEqual([]);
      const mails = await live.testApp.database.db
        .select({ recipient: mailMessages.recipient })
        .from(mailMessages)
        .where(
          and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'email_verification')),
        );
      expect(mails).toEqual([{ recipient: email }]);
      expect(await sample.end()).toBe(0);
    } finally {
      await live.updateApplication({ requireVerifiedEmail: false });
    }
  });

  // The offline licence. Offline is the same program with its base URL on a closed port: every
  // call fails to connect, as with no network.
  describe('offline licence', () => {
    let offlineCode: string;
    beforeAll(async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as { port: number };
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      offlineCode = replaceConstant(code, 'BASE_URL', `'http://127.0.0.1:${port}'`);
    });

    const offlineFile = (home: string) =>
      join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.offline.json`);
    const storedLicense = (home: string) =>
      JSON.parse(readFileSync(offlineFile(home), 'utf8')) as {
        license: string;
        last_seen: number;
      };
    const contentOf = (license: string) =>
      JSON.parse(Buffer.from(license.split('.')[1]!, 'base64url').toString('utf8')) as {
        username: string;
        hwid: string | null;
        valid_until: string;
        application_id: number;
      };
    const kolkata = { TZ: 'Asia/Kolkata' };

    /** Logs in online, waits for the licence to be stored, and leaves the program. */
    const logInAndCheckOut = async (user: { username: string; password: string }) => {
      const home = await newHome();
      const online = await startSample(home);
      const from = await logIn(online, user.username, user.password, 0);
      await online.waitFor('[latchkey] licence checked out', from);
      await online.waitFor('[latchkey] offline licence stored (valid until ', from);
      expect(await online.end()).toBe(0);
      return home;
    };

    /** Starts the program offline and answers what it printed once it waits for input. */
    const startOffline = async (home: string, source = offlineCode) => {
      const sample = await startSample(home, source, kolkata);
      await sample.waitFor('Connection error: ECONNREFUSED');
      return sample;
    };
    const expectRefused = async (home: string, text: string, source = offlineCode) => {
      const sample = await startOffline(home, source);
      const refused = await sample.waitFor(`Offline Licence Refused: ${text}\n`);
      await sample.waitFor('Username: ', refused);
      expect(sample.output()).not.toContain('Working offline');
      expect(sample.output()).not.toContain('=== Welcome');
      expect(await sample.end()).toBe(0);
    };

    it('checks out a licence after login, keeps last_seen with each heartbeat, and works offline on it until valid_until', async () => {
      const user = await live.createEndUser();
      const home = await newHome();
      const online = await startSample(home);
      let from = await logIn(online, user.username, user.password, 0);
      from = await online.waitFor('[latchkey] offline licence stored (valid until ', from);
      const stored = storedLicense(home);
      expect(stored.license).toMatch(/^LK1\.[\w-]+\.[\w-]+$/);
      const content = contentOf(stored.license);
      const [session] = await sessionsOf(user.id);
      expect(content).toMatchObject({
        username: user.username,
        application_id: live.application.id,
        hwid: session!.hwid,
      });
      // Seven days, as OFFLINE_LICENSE_TTL_SECONDS asks.
      const days = (Date.parse(content.valid_until) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);
      expect(Math.abs(stored.last_seen - Date.now() / 1000)).toBeLessThan(10);

      // A heartbeat moves last_seen on to now.
      const hourAgo = Math.floor(Date.now() / 1000) - 3600;
      writeFileSync(offlineFile(home), JSON.stringify({ ...stored, last_seen: hourAgo }));
      await online.waitFor('[latchkey] heartbeat ok', online.mark());
      await waitUntil(async () => {
        expect(storedLicense(home).last_seen).toBeGreaterThan(hourAgo + 3000);
      });
      expect(await online.end()).toBe(0);
      const [kept] = await sessionsOf(user.id);

      const sample = await startOffline(home);
      from = await sample.waitFor(`Working offline until ${shownInKolkata(content.valid_until)}\n`);
      expect(sample.output()).toContain(`=== Welcome, ${user.username} ===`);
      expect(sample.output()).toContain(`User ID:       ${user.id}`);
      expect(sample.output()).not.toContain('Server Unreachable');
      from = await sample.waitFor('> ', from);
      sample.send('status');
      from = await sample.waitFor('No active session.\n', from);
      await sample.waitFor('Working offline until', from);
      // No session offline: nothing started, nothing heartbeating.
      expect(sample.output()).not.toContain('session started');
      expect(sample.output()).not.toMatch(/heartbeat/i);
      expect(await sessionsOf(user.id)).toMatchObject([{ id: kept!.id, endedAt: null }]);
      expect(storedLicense(home).license).toBe(stored.license);

      // Logging out forgets the user here: the saved session and the licence go together.
      sample.send('logout');
      from = await sample.waitFor('You have been logged out.\n', from);
      await sample.waitFor('Username: ', from);
      expect(existsSync(offlineFile(home))).toBe(false);
      expect(existsSync(savedSessionFile(home))).toBe(false);
      expect(await sample.end()).toBe(0);
    });

    it("refuses another machine's licence, an edited one and a clock set back; with none, says the server is unreachable", async () => {
      const user = await live.createEndUser();
      const home = await logInAndCheckOut(user);
      const stored = storedLicense(home);

      // Another machine: the same program reading another machine identifier.
      const machineId = join(home, 'another-machine-id');
      writeFileSync(machineId, '0123456789abcdef0123456789abcdef\n');
      await expectRefused(
        home,
        'This offline licence belongs to another machine.',
        replaceConstant(offlineCode, 'MACHINE_ID_FILES', JSON.stringify([machineId])),
      );

      // A payload edited to stretch valid_until: its signature no longer holds.
      const [prefix, payload, signature] = stored.license.split('.');
      const stretched = Buffer.from(
        JSON.stringify({ ...contentOf(stored.license), valid_until: '2099-01-01T00:00:00.000Z' }),
      ).toString('base64url');
      expect(stretched).not.toBe(payload);
      writeFileSync(
        offlineFile(home),
        JSON.stringify({ ...stored, license: `${prefix}.${stretched}.${signature}` }),
      );
      await expectRefused(home, 'This offline licence is not signed by this application.');

      // The clock a day behind the last run (as if set back since).
      const dayAhead = Math.floor(Date.now() / 1000) + 86_400;
      writeFileSync(offlineFile(home), JSON.stringify({ ...stored, last_seen: dayAhead }));
      await expectRefused(home, 'The system clock moved backwards since the last run.');
      // A refused start never lowers last_seen.
      expect(storedLicense(home).last_seen).toBe(dayAhead);

      // The genuine licence back: the same machine, a sane clock, and it holds.
      writeFileSync(offlineFile(home), JSON.stringify(stored));
      const accepted = await startOffline(home);
      await accepted.waitFor('Working offline until');
      expect(await accepted.end()).toBe(0);

      rmSync(offlineFile(home));
      const none = await startOffline(home);
      const unreachable = await none.waitFor(
        'Server Unreachable: Cannot reach the server, and there is no offline licence on this machine.\n',
      );
      await none.waitFor('Username: ', unreachable);
      expect(none.output()).not.toContain('Offline Licence Refused');
      expect(await none.end()).toBe(0);
    });

    it('carries on online when the checkout is refused, and offline then says the server is unreachable', async () => {
      // A week is past this application's limit: the checkout is a 400 INVALID_REQUEST.
      await live.updateApplication({ maxOfflineDays: 1 });
      try {
        const user = await live.createEndUser();
        const home = await newHome();
        const online = await startSample(home);
        let from = await logIn(online, user.username, user.password, 0);
        from = await online.waitFor('[latchkey] licence checkout refused (INVALID_REQUEST)', from);
        await online.waitFor('[latchkey] heartbeat ok', from);
        expect(await newLiveSessions()).toBe(1);
        expect(existsSync(offlineFile(home))).toBe(false);
        expect(await online.end()).toBe(0);

        const offline = await startOffline(home);
        const unreachable = await offline.waitFor(
          'Server Unreachable: Cannot reach the server, and there is no offline licence on this machine.\n',
        );
        await offline.waitFor('Username: ', unreachable);
        expect(await offline.end()).toBe(0);
      } finally {
        await live.updateApplication({ maxOfflineDays: 30 });
      }
    });

    it('refuses a licence past its valid_until, the account expiry it was bound by', async () => {
      const user = await live.createEndUser();
      const updated = await live.updateEndUser(user.id, {
        expiresAt: new Date(Date.now() + 8_000).toISOString(),
      });
      const home = await logInAndCheckOut(user);
      const content = contentOf(storedLicense(home).license);
      expect(Date.parse(content.valid_until)).toBe(Date.parse(updated.expiresAt!));

      // The real expiry has to pass: that is the one wait here.
      const wait = Date.parse(content.valid_until) + 1_000 - Date.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
      await expectRefused(
        home,
        `This offline licence expired on ${shownInKolkata(content.valid_until)}.`,
      );
    });

    // Air-gapped activation: the machine never reaches the server (its program points at the
    // closed port); its user carries the request to the portal on another computer and back.
    describe('activation of a computer that never reaches the server', () => {
      let planName: string;
      let keyFor: () => Promise<{ id: string; key: string }>;
      beforeAll(async () => {
        await live.updateApplication({ portalEnabled: true });
        const plan = await live.createPlan({
          name: 'Air-gapped Lab',
          durationDays: 365,
          entitlements: ['LAB'],
        });
        planName = plan.name;
        keyFor = async () => (await live.generateLicenseKeys(plan.id))[0]!;
      });
      afterAll(async () => {
        await live.updateApplication({ portalEnabled: false });
      });

      /** The content of an activation request as the program printed it (after `from`). */
      const printedRequest = (sample: RunningSample, from: number) => {
        const found = /^(LKA1\.([\w-]+)\.[\w-]{16})$/m.exec(sample.output().slice(from));
        expect(found, sample.output()).not.toBeNull();
        const content = JSON.parse(Buffer.from(found![2]!, 'base64url').toString('utf8')) as {
          app: string;
          hwid: string;
          license_key?: string;
          username?: string;
          device_name?: string;
        };
        return { request: found![1]!, content };
      };

      it('writes a request for a key, runs on the licence the portal gives for it, and the next start runs on it without the server', async () => {
        const key = await keyFor();
        const home = await newHome();
        const sample = await startSample(home, offlineCode, kolkata);
        const intro = await sample.waitFor('or /offline to activate this computer');
        let from = await sample.waitFor('Username: ', intro);
        sample.send('/offline');
        from = await sample.waitFor('Licence key (or empty to use a username): ', from);
        sample.send(key.key);
        const instructions = await sample.waitFor('=== Activate this computer offline ===', from);
        from = await sample.waitFor('Offline licence: ', instructions);
        const printed = sample.output().slice(instructions, from);
        // The sample does not know the portal's address: the user is told to ask for it.
        expect(printed).toContain(
          "open your vendor's portal page (ask them for its address)\n" +
            '   and choose "Activate a computer offline".',
        );
        const { request, content: asked } = printedRequest(sample, instructions);
        expect(asked).toMatchObject({
          app: live.application.signingPublicKey.toLowerCase(),
          license_key: key.key,
          device_name: hostname(),
        });
        expect(asked.username).toBeUndefined();

        // On another computer: the portal, not signed in, activates the key's holder.
        const activation = await live.activateOffline(request);
        const holder = `key-${key.id}`;
        expect(activation.username).toBe(holder);
        expect(contentOf(activation.license)).toMatchObject({
          username: holder,
          hwid: asked.hwid,
          application_id: live.application.id,
        });

        sample.send(activation.license);
        const validUntil = shownInKolkata(activation.validUntil);
        from = await sample.waitFor(
          `Offline Licence Accepted: for ${holder}, valid until ${validUntil}\n`,
          from,
        );
        from = await sample.waitFor(`=== Welcome, ${holder} ===\n`, from);
        from = await sample.waitFor('Entitlements:  LAB\n', from);
        from = await sample.waitFor(`Subscriptions: ${planName} until 20`, from);
        from = await sample.waitFor(`Working offline until ${validUntil}\n`, from);
        from = await sample.waitFor('> ', from);
        expect(storedLicense(home).license).toBe(activation.license);
        expect(existsSync(savedSessionFile(home))).toBe(false);
        sample.send('status');
        from = await sample.waitFor('No active session.\n', from);
        await sample.waitFor(`Working offline until ${validUntil}\n`, from);
        expect(await sample.end()).toBe(0);
        // This computer never called the server, and the key typed is not shown.
        expect(sample.output()).not.toContain('Connection error');
        expect(sample.output()).not.toContain(key.key);

        // The next start runs on the stored licence straight away, without trying the server.
        const again = await startSample(home, offlineCode, kolkata);
        from = await again.waitFor(`=== Welcome, ${holder} ===\n`);
        from = await again.waitFor('Entitlements:  LAB\n', from);
        await again.waitFor(`Working offline until ${validUntil}\n`, from);
        expect(again.output()).not.toContain('Connection error');
        expect(again.output()).not.toContain('Offline Licence Refused');
        expect(await again.end()).toBe(0);
      });

      it("refuses another machine's licence and one copied in part, and stores neither", async () => {
        const key = await keyFor();
        const labHome = await newHome();
        const lab = await startSample(labHome, offlineCode, kolkata);
        let from = await lab.waitFor('Username: ');
        lab.send('/offline');
        from = await lab.waitFor('Licence key (or empty to use a username): ', from);
        lab.send(key.key);
        from = await lab.waitFor('Offline licence: ', from);
        const { request: labRequest, content: labAsked } = printedRequest(lab, 0);
        const { license } = await live.activateOffline(labRequest);
        expect(await lab.end()).toBe(0);

        // Another machine: the same program reading another machine identifier, for a username.
        const home = await newHome();
        const machineId = join(home, 'another-machine-id');
        writeFileSync(machineId, 'fedcba9876543210fedcba9876543210\n');
        const other = await startSample(
          home,
          replaceConstant(offlineCode, 'MACHINE_ID_FILES', JSON.stringify([machineId])),
          kolkata,
        );
        from = await other.waitFor('Username: ');
        other.send('/offline');
        from = await other.waitFor('Licence key (or empty to use a username): ', from);
        other.send('');
        from = await other.waitFor('Username: ', from);
        other.send('lab_operator');
        const instructions = await other.waitFor('=== Activate this computer offline ===', from);
        from = await other.waitFor('Offline licence: ', instructions);
        // A request for an account: the portal wants that account signed in.
        expect(other.output().slice(instructions, from)).toContain(', sign in as lab_operator\n');
        const { content: otherAsked } = printedRequest(other, instructions);
        expect(otherAsked).toMatchObject({ username: 'lab_operator' });
        expect(otherAsked.license_key).toBeUndefined();
        expect(otherAsked.hwid).not.toBe(labAsked.hwid);

        // The lab machine's licence, pasted here.
        other.send(license);
        from = await other.waitFor(
          'Offline Licence Refused: This offline licence belongs to another machine.\n',
          from,
        );
        expect(other.output()).toContain('[latchkey] offline licence refused (OTHER_MACHINE)\n');
        from = await other.waitFor('Username: ', from);

        // A licence copied in part (its signature left behind).
        other.send('/offline');
        from = await other.waitFor('Licence key (or empty to use a username): ', from);
        other.send(key.key);
        from = await other.waitFor('Offline licence: ', from);
        other.send(license.split('.').slice(0, 2).join('.'));
        from = await other.waitFor(
          'Offline Licence Refused: This is not an offline licence, or only part of it was copied.\n',
          from,
        );
        expect(other.output()).toContain('[latchkey] offline licence refused (MALFORMED)\n');
        from = await other.waitFor('Username: ', from);

        // Nothing pasted: nothing changes.
        other.send('/offline');
        from = await other.waitFor('Licence key (or empty to use a username): ', from);
        other.send(key.key);
        from = await other.waitFor('Offline licence: ', from);
        other.send('');
        from = await other.waitFor('No licence pasted: this computer is not activated.\n', from);
        await other.waitFor('Username: ', from);
        expect(other.output()).not.toContain('=== Welcome');
        expect(existsSync(offlineFile(home))).toBe(false);
        expect(await other.end()).toBe(0);
      });
    });
  });

  // Remote variables, set by the owner as the console does.
  describe('remote variables', () => {
    it('shows the welcome message and the note when they exist, saves a note the owner then sees, and refuses a read-only one', async () => {
      const user = await live.createEndUser();
      const sample = await startSample(await newHome());
      // Neither exists yet: VARIABLE_NOT_FOUND shows nothing.
      let from = await logIn(sample, user.username, user.password, 0);
      from = await sample.waitFor('Subscriptions: none\n', from);
      let mainScreen = await sample.waitFor('> ', from);
      expect(sample.output().slice(from, mainScreen)).not.toMatch(/Message:|Note:|not read/);
      sample.send('logout');
      from = await sample.waitFor('You have been logged out.\n', mainScreen);

      const welcome = 'Hello from the vendor (sample test) ✓';
      await live.createVariable({ name: 'welcome_message', value: welcome });
      await live.setUserVariable(user.id, 'note', { value: 'set by the vendor' });
      from = await logIn(sample, user.username, user.password, from);
      from = await sample.waitFor(`Message: ${welcome}\n`, from);
      from = await sample.waitFor('Note: set by the vendor\n', from);
      mainScreen = await sample.waitFor('> ', from);

      sample.send('help');
      from = await sample.waitFor('  note     save a note on your account', mainScreen);
      from = await sample.waitFor('> ', from);
      sample.send('note');
      from = await sample.waitFor('New note: ', from);
      sample.send('written by the sample');
      from = await sample.waitFor('Note saved.\n', from);
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'written by the sample', readOnly: false },
      ]);

      await live.setUserVariable(user.id, 'note', { value: 'locked', readOnly: true });
      from = await sample.waitFor('> ', from);
      sample.send('note');
      from = await sample.waitFor('New note: ', from);
      sample.send('an attempt to change it');
      from = await sample.waitFor('Note Is Read-Only: ', from);
      await sample.waitFor('> ', from);
      expect(sample.output().slice(from)).not.toContain('Note saved.');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'locked', readOnly: true },
      ]);
      expect(await sample.end()).toBe(0);
    });
  });

  // The update channel. The current release is a file the owner uploaded; this copy of the
  // program is an older version, so its login answers VERSION_MISMATCH with the update.
  describe('update download', () => {
    const releaseBytes = randomBytes(300_000);
    let olderCode: string;
    let release: AppFile;
    beforeAll(async () => {
      release = await live.uploadFile({
        name: 'latchkey-sample-update.bin',
        version: '9.9.9',
        bytes: releaseBytes,
        // Offered to a version that may not log in: no session to download it with.
        requiresSession: false,
      });
      await live.setCurrentRelease(release.id);
      olderCode = replaceConstant(code, 'APP_VERSION', "'0.0.1'");
    });

    /** Logs in with the older program and answers the offer; answers where the offer ended. */
    const answerOffer = async (sample: RunningSample, answer: string) => {
      const user = await live.createEndUser();
      let from = await logIn(sample, user.username, user.password, 0);
      from = await sample.waitFor('Update Required: ', from);
      from = await sample.waitFor('Version 9.9.9 is available. Download it? (y/n) ', from);
      sample.send(answer);
      return from;
    };

    it('downloads the offered release beside the program and keeps it when its SHA-256 matches', async () => {
      const sample = await startSample(await newHome(), olderCode);
      const from = await answerOffer(sample, 'y');
      const saved = join(sample.directory, 'update-9.9.9.bin');
      await sample.waitFor(`Update saved to ${saved}\n`, from);
      expect(await sample.end()).toBe(1);
      expect(readFileSync(saved).equals(releaseBytes)).toBe(true);
      expect(readdirSync(sample.directory).sort()).toEqual([
        'latchkey-client.mjs',
        'update-9.9.9.bin',
      ]);
    });

    it('refuses a download changed on the way and keeps nothing; a no downloads nothing', async () => {
      const throughProxy = olderCode.replaceAll(
        JSON.stringify(live.baseUrl),
        JSON.stringify(proxy.baseUrl),
      );
      expect(throughProxy).not.toBe(olderCode);
      proxy.state.tamperPathPrefix = '/api/v1/downloads';
      proxy.state.tamper = true;
      const tampered = await startSample(await newHome(), throughProxy);
      const from = await answerOffer(tampered, 'y');
      await tampered.waitFor(
        'Update Refused: The download does not match its signed SHA-256.\n',
        from,
      );
      expect(await tampered.end()).toBe(1);
      expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
      expect(readdirSync(tampered.directory)).toEqual(['latchkey-client.mjs']);

      const declined = await startSample(await newHome(), olderCode);
      await answerOffer(declined, 'n');
      expect(await declined.end()).toBe(1);
      expect(declined.output()).not.toContain('Update saved');
      expect(readdirSync(declined.directory)).toEqual(['latchkey-client.mjs']);
    });

    it('offers the release the licence includes on UPDATES_EXPIRED, when this version came out after the updates period', async () => {
      // The program as rendered: the application's own version, published past the user's window.
      const user = await live.createEndUser();
      try {
        await live.endUpdatesWindowAt(user.id, release);
        const sample = await startSample(await newHome());
        let from = await logIn(sample, user.username, user.password, 0);
        from = await sample.waitFor(`Updates Ended: ${clientMessages.updatesExpired}\n`, from);
        from = await sample.waitFor(
          'Your licence includes version 9.9.9. Download it? (y/n) ',
          from,
        );
        sample.send('y');
        const saved = join(sample.directory, 'update-9.9.9.bin');
        await sample.waitFor(`Update saved to ${saved}\n`, from);
        expect(await sample.end()).toBe(1);
        expect(readFileSync(saved).equals(releaseBytes)).toBe(true);
        expect(await sessionsOf(user.id)).toEqual([]);
      } finally {
        await live.setCurrentRelease(release.id);
      }
    });
  });
});

describe('Node.js sample: device name', () => {
  it('is the machine name without control characters, trimmed, at most 128 characters, never cut inside one', async () => {
    // The template itself, beside the installed SDK it imports.
    const template = join(sdk.consumerDir, 'latchkey-client-template.mjs');
    copyFileSync(new URL('../nodejs/latchkey-client.mjs', import.meta.url), template);
    const { getDeviceName } = (await import(/* @vite-ignore */ pathToFileURL(template).href)) as {
      getDeviceName: (machineName?: string) => string;
    };
    expect(getDeviceName()).toBe(hostname().trim());
    expect(getDeviceName('  build-agent-7\n')).toBe('build-agent-7');
    expect(getDeviceName('a\u0007b')).toBe('ab');
    expect(getDeviceName('x'.repeat(200))).toBe('x'.repeat(128));
    // An emoji is two UTF-16 units: one that would straddle the limit is left out whole.
    expect(getDeviceName(`${'x'.repeat(127)}\u{1F5A5}tail`)).toBe('x'.repeat(127));
    // A cut that ends in a space is trimmed again.
    expect(getDeviceName(`${'x'.repeat(127)} ${'y'.repeat(10)}`)).toBe('x'.repeat(127));
  });
});
