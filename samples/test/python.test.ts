import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FORGOT_PASSWORD_ANSWER,
  VERIFICATION_RESEND_ANSWER,
  type AppFile,
} from '@latchkey/contracts';
import { appUserSessions, appUsers, mailMessages } from '../../apps/server/src/db/schema/index.ts';
import { clientMessages } from '../../apps/server/src/modules/client-api/client-outcomes.ts';
import {
  canBuildPythonSdk,
  installPythonSdkPackage,
} from '../../sdks/test/installed-python-sdk.ts';
import { replaceConstant, startLiveLatchkey, type LiveLatchkey } from './live-latchkey.ts';
import { hasTool } from './require-tool.ts';
import { startTamperingProxy } from './tampering-proxy.ts';
import { startXDisplay, type XDisplay } from './x-display.ts';

/**
 * The Python sample: the Tkinter program exactly as the server renders it (intervals shortened
 * to one second), run in a folder outside the repository by the interpreter of a virtual
 * environment (over Debian's /usr/bin/python3) into which the `latchkey` SDK's wheel is built and
 * installed as a vendor installs it, in a real window on Xvfb and driven with xdotool against a
 * live Latchkey. Every outcome is checked on the server (sessions, heartbeats) and on screen
 * (window titles); the sample's `[latchkey]` log lines say which text a dialog showed, since
 * xdotool cannot read it.
 */
const python = '/usr/bin/python3';
const samplesDirectory = fileURLToPath(new URL('..', import.meta.url));
const screenshotPath = join(samplesDirectory, 'test-results', 'python-main-screen.png');
const loginTitle = '^Latchkey Client - Login$';
const mainTitle = '^Latchkey Client - Main$';

const isRunnable =
  hasTool(python, ['-c', 'import tkinter, nacl.signing'], 'python3-tk python3-nacl') &&
  canBuildPythonSdk() &&
  hasTool('Xvfb', ['-help'], 'xvfb') &&
  hasTool('xdotool', ['--version'], 'xdotool');

/** A server time as the sample shows it in Asia/Kolkata (+05:30): the minute, rounded up. */
const shownInKolkata = (iso: string) => {
  const minute = Math.ceil(Date.parse(iso) / 60_000) * 60_000;
  return new Date(minute + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
};

interface RunningSample {
  output: () => string;
  /** Resolves with the program's exit code once it exits of itself. */
  exitCode(): Promise<number | null>;
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

describe.skipIf(!isRunnable)('Python Tkinter sample against a live Latchkey', () => {
  let live: LiveLatchkey;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let x: XDisplay;
  let workDirectory: string;
  let sdk: Awaited<ReturnType<typeof installPythonSdkPackage>>;
  let samplePath: string;
  let proxiedSamplePath: string;
  const running: RunningSample[] = [];

  beforeAll(async () => {
    workDirectory = mkdtempSync(join(tmpdir(), 'latchkey-python-sample-'));
    const sdkDirectory = join(workDirectory, 'sdk');
    mkdirSync(sdkDirectory);
    [live, x, sdk] = await Promise.all([
      startLiveLatchkey(),
      startXDisplay(),
      installPythonSdkPackage(sdkDirectory),
    ]);
    proxy = await startTamperingProxy(live.baseUrl);
    let code = await live.renderSample('python');
    for (const name of ['HEARTBEAT_INTERVAL_SECONDS', 'VERIFY_INTERVAL_SECONDS']) {
      code = replaceConstant(code, name, 1);
    }
    samplePath = join(workDirectory, 'latchkey_client.py');
    writeFileSync(samplePath, code);
    proxiedSamplePath = join(workDirectory, 'latchkey_client_proxied.py');
    writeFileSync(
      proxiedSamplePath,
      code.replaceAll(JSON.stringify(live.baseUrl), JSON.stringify(proxy.baseUrl)),
    );
    mkdirSync(join(samplesDirectory, 'test-results'), { recursive: true });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((sample) => sample.stop()));
    proxy.state.tamper = false;
    proxy.state.tamperPathPrefix = null;
  });

  afterAll(async () => {
    await Promise.all(running.splice(0).map((sample) => sample.stop()));
    await proxy?.close();
    await x?.close();
    await live?.close();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  const newHome = () => mkdtempSync(join(workDirectory, 'home-'));

  const startSample = (
    path: string,
    home: string,
    extraEnv: Record<string, string> = {},
  ): RunningSample => {
    const child: ChildProcess = spawn(sdk.python, ['-B', path], {
      // Only what the program needs: no proxy settings of this machine, its own home.
      env: {
        PATH: '/usr/bin:/bin',
        DISPLAY: x.display,
        HOME: home,
        PYTHONUNBUFFERED: '1',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(killTimer);
        resolve(code);
      }),
    );
    const sample: RunningSample = {
      output: () => output,
      exitCode: () => exited,
      async waitForLine(pattern, timeoutMs = 15_000) {
        const deadline = Date.now() + timeoutMs;
        while (!pattern.test(output)) {
          if (Date.now() > deadline || child.exitCode !== null) {
            throw new Error(`no line ${String(pattern)} in the sample's output:\n${output}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
    running.push(sample);
    return sample;
  };

  /** Types into the login form (400x300 at a fixed layout) and clicks Login. */
  const logIn = async (username: string, password: string) => {
    const window = await x.waitForWindow(loginTitle);
    const { x: left, y: top } = await x.windowGeometry(window);
    await x.xdotool(['windowfocus', '--sync', window]);
    await x.click(left + 200, top + 118);
    await x.xdotool(['type', '--delay', '5', username]);
    await x.click(left + 200, top + 173);
    await x.xdotool(['type', '--delay', '5', password]);
    await x.click(left + 200, top + 225);
  };

  /** Waits for a dialog by its exact title and closes it with Return (its OK button). */
  const dismissDialog = async (title: string) => {
    const dialog = await x.waitForWindow(`^${title}$`);
    await x.xdotool(['windowfocus', '--sync', dialog]);
    await x.xdotool(['key', 'Return']);
    await x.waitForNoWindow(`^${title}$`);
  };

  const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const sessionsOf = (userId: string) =>
    live.testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, userId));
  const openSessionsOf = (userId: string) =>
    live.testApp.database.db
      .select()
      .from(appUserSessions)
      .where(and(eq(appUserSessions.appUserId, userId), isNull(appUserSessions.endedAt)));
  const savedSessionFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.json`);

  it('compiles as rendered, names the install line of its SDK, and its own parts pass their unit tests', () => {
    const compiled = spawnSync(sdk.python, ['-B', '-m', 'py_compile', samplePath], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const code = readFileSync(samplePath, 'utf8');
    expect(code).toContain(`"${live.application.signingPublicKey}"`);
    // The header's install line names this server and the wheel the SDK builds today.
    expect(code).toContain(
      `pip install "latchkey[nacl] @ "${live.baseUrl}"/sdk/${sdk.wheelName}"\n`,
    );

    // Beside the rendered copy, outside the repository: the demo program's own parts (titles,
    // texts, times); what talks to the server is the SDK's, held to its conformance suite.
    copyFileSync(
      join(samplesDirectory, 'python', 'test_latchkey_client.py'),
      join(workDirectory, 'test_latchkey_client.py'),
    );
    const tests = spawnSync(sdk.python, ['-B', '-m', 'unittest', 'test_latchkey_client'], {
      cwd: workDirectory,
      env: { PATH: '/usr/bin:/bin', LATCHKEY_CLIENT_PATH: samplePath },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(tests.stderr).toMatch(/Ran \d+ tests/);
    expect(tests.status).toBe(0);
  });

  it('logs in, verifies, starts a session with heartbeats, resumes a saved session and logs out', async () => {
    const user = await live.createEndUser();
    const home = newHome();
    const first = startSample(samplePath, home);
    await logIn(user.username, user.password);
    await dismissDialog('Login Successful');
    await x.waitForWindow(mainTitle);
    await first.waitForLine(/\[latchkey\] session started \S{8}\n/);
    expect(first.output()).toContain(
      `[latchkey] dialog Login Successful: ${live.application.loginSuccessMessage}\n`,
    );
    await waitFor(async () => (await live.activeSessionCount()) === 1, 'a live session');

    // A heartbeat moves the session row's last_heartbeat_at past its start.
    await first.waitForLine(/\[latchkey\] heartbeat ok\n/);
    await waitFor(async () => {
      const [session] = await sessionsOf(user.id);
      return session !== undefined && session.lastHeartbeatAt > session.startedAt;
    }, 'a heartbeat in the session row');
    expect(first.output()).not.toContain(user.password);

    const main = await x.waitForWindow(mainTitle);
    const area = await x.windowGeometry(main);
    expect(area).toMatchObject({ width: 600, height: 400 });
    await first.waitForLine(/\[latchkey\] heartbeat ok\n[\s\S]*heartbeat ok\n/);
    await x.xdotool(['mousemove', '1000', '700']); // the pointer out of the picture
    const { distinctColours } = x.screenshot(screenshotPath, area);
    expect(distinctColours).toBeGreaterThan(2); // text and a button, not a blank window
    expect(readFileSync(savedSessionFile(home), 'utf8')).toContain(user.id);

    // Persistence: a new start verifies the saved user_id and resumes the saved session with its
    // token (no password), straight to the main screen: the same session goes on, none is added.
    const [firstSession] = await sessionsOf(user.id);
    await first.stop();
    const second = startSample(samplePath, home);
    await second.waitForLine(/\[latchkey\] Saved session verified\.\n/);
    await x.waitForWindow(mainTitle);
    await second.waitForLine(/\[latchkey\] session started \S{8}\n[\s\S]*heartbeat ok\n/);
    const [resumed, ...others] = await openSessionsOf(user.id);
    expect(others).toEqual([]);
    expect(resumed!.id).toBe(firstSession!.id);

    // Manual logout ends that session and forgets the saved id.
    const secondMain = await x.waitForWindow(mainTitle);
    const secondArea = await x.windowGeometry(secondMain);
    await x.click(secondArea.x + 300, secondArea.y + 360);
    await dismissDialog('Logged Out');
    await x.waitForWindow(loginTitle);
    await second.waitForLine(/\[latchkey\] session ended\n/);
    expect(second.output()).toContain('[latchkey] dialog Logged Out: You have been logged out.\n');
    expect(await openSessionsOf(user.id)).toEqual([]);
    expect(await sessionsOf(user.id)).toHaveLength(1);
    expect(existsSync(savedSessionFile(home))).toBe(false);
    expect(await live.activeSessionCount()).toBe(0);
  });

  it("asks for both fields, then refuses a wrong password with the application's own message", async () => {
    const user = await live.createEndUser();
    const first = startSample(samplePath, newHome());
    const loginWindow = await x.waitForWindow(loginTitle);
    expect(await x.windowGeometry(loginWindow)).toMatchObject({ width: 400, height: 300 });
    await logIn('   ', 'a password'); // trimmed, the username is empty
    await dismissDialog('Validation Error');
    expect(first.output()).toContain(
      '[latchkey] dialog Validation Error: Please enter both username and password.\n',
    );
    expect(first.output()).not.toContain('login as');

    await first.stop();

    const sample = startSample(samplePath, newHome());
    await logIn(user.username, 'not the password');
    await dismissDialog('Login Failed');
    expect(sample.output()).toContain(
      `[latchkey] dialog Login Failed: ${live.application.loginFailedMessage}\n`,
    );
    await x.waitForWindow(loginTitle);
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it('forces a logout after three failed verifies once the owner pauses the user', async () => {
    const user = await live.createEndUser();
    const home = newHome();
    // Relative to what is live already, so that an earlier test's failure cannot fail this one.
    const liveBefore = await live.activeSessionCount();
    const sample = startSample(samplePath, home);
    await logIn(user.username, user.password);
    await dismissDialog('Login Successful');
    await x.waitForWindow(mainTitle);
    await waitFor(
      async () => (await live.activeSessionCount()) === liveBefore + 1,
      'a live session',
    );

    await live.pauseEndUser(user.id);
    await x.waitForWindow('^Session Expired$');
    expect(sample.output()).toMatch(/verify failed \(3\/3\): ACCOUNT_DISABLED\n/);
    // The forced logout ends the session on a thread of its own, whose line ("session ended", or
    // the refusal of a session the pause has ended already) may fall between these two.
    expect(sample.output()).toMatch(
      /\[latchkey\] forced logout\n(?:\[latchkey\] [Ss]ession end[^\n]*\n)?\[latchkey\] dialog Session Expired: Your session has expired\. Please login again\.\n/,
    );
    expect(await openSessionsOf(user.id)).toHaveLength(0);
    expect(await live.activeSessionCount()).toBe(liveBefore);
    await dismissDialog('Session Expired');
    await x.waitForWindow(loginTitle);
    expect(existsSync(savedSessionFile(home))).toBe(false);
  });

  it('refuses a tampered answer: no login, no session', async () => {
    const user = await live.createEndUser();
    proxy.state.tamper = true;
    const sample = startSample(proxiedSamplePath, newHome());
    await logIn(user.username, user.password);
    await dismissDialog('Security Warning');
    expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
    expect(sample.output()).toContain('[latchkey] response not verified\n');
    expect(sample.output()).toContain(
      '[latchkey] dialog Security Warning: The server response could not be verified.\n',
    );
    expect(sample.output()).not.toContain('login ok');
    await x.waitForWindow(loginTitle);
    expect(await x.findWindows(mainTitle)).toEqual([]);
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it('shows Hardware Mismatch when the account is locked to another device', async () => {
    await live.updateApplication({ hwidLockEnabled: true });
    const user = await live.createEndUser({ hwid: 'another-device-0123456789' });
    const sample = startSample(samplePath, newHome());
    await logIn(user.username, user.password);
    await dismissDialog('Hardware Mismatch');
    expect(sample.output()).toContain(
      `[latchkey] dialog Hardware Mismatch: ${live.application.hwidMismatchMessage}\n`,
    );
    await x.waitForWindow(loginTitle);
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it("shows Update Required and exits when the version is not the application's", async () => {
    const user = await live.createEndUser();
    const code = readFileSync(samplePath, 'utf8');
    const versionLiteral = JSON.stringify(live.application.version);
    expect(code).toContain(`APP_VERSION = ${versionLiteral}\n`);
    const oldVersionPath = join(workDirectory, 'latchkey_client_old_version.py');
    writeFileSync(
      oldVersionPath,
      code.replace(`APP_VERSION = ${versionLiteral}`, 'APP_VERSION = "0.0.1"'),
    );
    const sample = startSample(oldVersionPath, newHome());
    await logIn(user.username, user.password);
    await dismissDialog('Update Required');
    expect(sample.output()).toContain(
      `[latchkey] dialog Update Required: ${live.application.versionMismatchMessage}\n`,
    );
    const stillRunning = new Promise((resolve) =>
      setTimeout(() => resolve('still running'), 10_000),
    );
    expect(await Promise.race([sample.exitCode(), stillRunning])).toBe(1);
    expect(await x.findWindows(loginTitle)).toEqual([]);
  });

  // Without SMTP_URL the test server's mail goes to its local mailbox: a queued row per message.
  it('asks for a reset link by username and by e-mail from Forgot password?, and shows the answer', async () => {
    const user = await live.createEndUser();
    const email = `${user.username}@example.com`;
    await live.updateEndUser(user.id, { email });
    const sample = startSample(samplePath, newHome());

    for (const usernameOrEmail of [user.username, email.toUpperCase()]) {
      const login = await x.waitForWindow(loginTitle);
      const { x: left, y: top } = await x.windowGeometry(login);
      await x.xdotool(['windowfocus', '--sync', login]);
      await x.click(left + 285, top + 198);
      const prompt = await x.waitForWindow('^Latchkey Client - Forgot Password$');
      await x.xdotool(['windowfocus', '--sync', prompt]);
      await x.xdotool(['type', '--delay', '5', usernameOrEmail]);
      await x.xdotool(['key', 'Return']);
      await dismissDialog('Check Your E-mail');
    }
    const answerLine = `[latchkey] dialog Check Your E-mail: ${FORGOT_PASSWORD_ANSWER}\n`;
    expect(sample.output().split(answerLine).length - 1).toBe(2);
    const mails = await live.testApp.database.db
      .select({ recipient: mailMessages.recipient })
      .from(mailMessages)
      .where(and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'password_reset')));
    expect(mails).toEqual([{ recipient: email }, { recipient: email }]);
    await x.waitForWindow(loginTitle);
  });

  it('names an unconfirmed address at login, and mails a new link to confirm it from Resend verification e-mail', async () => {
    await live.updateApplication({ requireVerifiedEmail: true });
    try {
      const user = await live.createEndUser();
      const email = `${user.username}@example.com`;
      await live.updateEndUser(user.id, { email });
      const sample = startSample(samplePath, newHome());
      await logIn(user.username, user.password);
      await dismissDialog('E-mail Not Verified');
      expect(sample.output()).toContain(
        `[latchkey] dialog E-mail Not Verified: ${clientMessages.emailNotVerified} Click "Resend verification e-mail" on the login screen to be mailed a new link.\n`,
      );

      // The username and password are still in the form: the link sends them.
      const login = await x.waitForWindow(loginTitle);
      const { x: left, y: top } = await x.windowGeometry(login);
      await x.xdotool(['windowfocus', '--sync', login]);
      await x.click(left + 200, top + 255);
      await dismissDialog('Check Your E-mail');
      expect(sample.output()).toContain(
        `[latchkey] dialog Check Your E-mail: ${VERIFICATION_RESEND_ANSWER}\n`,
      );
      expect(sample.output()).not.toContain('login ok');
      expect(await sessionsOf(user.id)).toHaveLength(0);
      const mails = await live.testApp.database.db
        .select({ recipient: mailMessages.recipient })
        .from(mailMessages)
        .where(
          and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'email_verification')),
        );
      expect(mails).toEqual([{ recipient: email }]);
      await x.waitForWindow(loginTitle);
    } finally {
      await live.updateApplication({ requireVerifiedEmail: false });
    }
  });

  it('shows what is left of a usage meter, counts each use once, and names a used-up meter with when it resets', async () => {
    const user = await live.createEndUser();
    const meter = await live.grantTwoUseMeter(user.id);
    // The first of next month (UTC), as the sample shows it on a machine in Asia/Kolkata.
    const resets = `resets ${shownInKolkata(meter.resetsAt!)}`;
    const sample = startSample(samplePath, newHome(), { TZ: 'Asia/Kolkata' });
    await logIn(user.username, user.password);
    await dismissDialog('Login Successful');
    const main = await x.waitForWindow(mainTitle);
    await sample.waitForLine(/\[latchkey\] session started/);
    expect(sample.output()).toContain(`[latchkey] usage: exports: 2 of 2 left, ${resets}\n`);
    /** The Use feature link, on the usage line between the redeem row and the buttons. */
    const useFeature = async () => {
      const area = await x.windowGeometry(main);
      await x.xdotool(['windowfocus', '--sync', main]);
      await x.click(area.x + 535, area.y + 336);
    };

    await useFeature();
    await dismissDialog('Usage Counted');
    await useFeature();
    await dismissDialog('Usage Counted');
    // A refusing meter counts nothing past its allowance; the code titles it, not the message.
    await useFeature();
    await dismissDialog('Usage Limit Reached');
    expect(sample.output()).toContain(
      `[latchkey] dialog Usage Counted: exports: 1 of 2 left, ${resets}\n`,
    );
    expect(sample.output()).toContain(
      `[latchkey] dialog Usage Counted: exports: 0 of 2 left, ${resets}\n`,
    );
    expect(sample.output()).toContain(`[latchkey] usage: exports: 0 of 2 left, ${resets}\n`);
    expect(sample.output()).toContain(
      `[latchkey] dialog Usage Limit Reached: ${clientMessages.meterExhausted} (${resets})\n`,
    );
    await live.expectTwoUsesCountedOnceEach(user.id);
  });

  it("starts this machine's trial once: a second start, under another name, logs in the same account; names a trial not offered and one ended", async () => {
    // A machine of its own: each machine has one trial, whatever else ran on this one.
    const machineId = join(newHome(), 'machine-id');
    writeFileSync(machineId, `${randomBytes(16).toString('hex')}\n`);
    const onItsMachinePath = join(workDirectory, 'latchkey_client_trial_machine.py');
    writeFileSync(
      onItsMachinePath,
      replaceConstant(
        readFileSync(samplePath, 'utf8'),
        'MACHINE_ID_FILES',
        `(${JSON.stringify(machineId)},)`,
      ),
    );
    const sample = startSample(onItsMachinePath, newHome(), { TZ: 'Asia/Kolkata' });
    /** Types the username (when there is one) and clicks Start Trial, under the password. */
    const startTrial = async (username: string) => {
      const login = await x.waitForWindow(loginTitle);
      const { x: left, y: top } = await x.windowGeometry(login);
      await x.xdotool(['windowfocus', '--sync', login]);
      if (username) {
        await x.click(left + 200, top + 118);
        await x.xdotool(['type', '--delay', '5', username]);
      }
      await x.click(left + 95, top + 198);
    };
    const logOut = async () => {
      const area = await x.windowGeometry(await x.waitForWindow(mainTitle));
      await x.click(area.x + 300, area.y + 360);
      await dismissDialog('Logged Out');
    };
    const sessionStarts = () => sample.output().split('[latchkey] session started ').length - 1;

    // The application offers none yet: the code titles it, and the login window stays.
    await startTrial('');
    await dismissDialog('Trial Unavailable');
    expect(sample.output()).toContain(
      `[latchkey] dialog Trial Unavailable: ${clientMessages.trialUnavailable}\n`,
    );
    await x.waitForWindow(loginTitle);

    await live.offerTrial(7, ['PRO']);
    try {
      await startTrial('python_trial_user');
      await dismissDialog('Trial Active');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] session started \S{8}\n/);
      const account = await live.expectTrialAccount('python_trial_user', 7);
      // As after a login, and the trial says when it ends (in local time: Kolkata, +05:30).
      const active = `[latchkey] dialog Trial Active: ${live.application.loginSuccessMessage} (trial ends ${shownInKolkata(account.expiresAt!)})\n`;
      expect(sample.output()).toContain(active);
      expect(sample.output()).toContain('[latchkey] entitlements: PRO\n');
      expect(await openSessionsOf(account.id)).toHaveLength(1);
      await logOut();

      // The same machine again, under another name: the trial it had, not a second one.
      await startTrial('python_second_trial');
      await dismissDialog('Trial Active');
      await x.waitForWindow(mainTitle);
      await waitFor(async () => sessionStarts() === 2, 'the second session to start');
      expect(sample.output().split(active).length - 1).toBe(2);
      await live.expectTrialAccount('python_trial_user', 7);
      expect(await live.findEndUser('python_second_trial')).toBeUndefined();
      expect(await sessionsOf(account.id)).toHaveLength(2);
      expect(await openSessionsOf(account.id)).toHaveLength(1);
      await logOut();

      // Its time is up: the machine's trial has ended, and says since when.
      const ended = new Date(Date.now() - 3_600_000).toISOString();
      await live.updateEndUser(account.id, { expiresAt: ended });
      await startTrial('python_third_trial');
      await dismissDialog('Trial Ended');
      expect(sample.output()).toContain(
        `[latchkey] dialog Trial Ended: ${clientMessages.trialEnded} (ended ${shownInKolkata(ended)})\n`,
      );
      await x.waitForWindow(loginTitle);
      expect(await live.findEndUser('python_third_trial')).toBeUndefined();
      expect(await openSessionsOf(account.id)).toEqual([]);
      expect(sessionStarts()).toBe(2);
    } finally {
      await live.offerTrial(null);
    }
  });

  it('borrows the seat for three days, keeping its licence and saying until when, then returns it', async () => {
    const user = await live.createEndUser();
    await live.grantFloatingPlan(user.id, { seats: 1, maxBorrowDays: 7 });
    const home = newHome();
    const sample = startSample(samplePath, home, { TZ: 'Asia/Kolkata' });
    await logIn(user.username, user.password);
    await dismissDialog('Login Successful');
    const main = await x.waitForWindow(mainTitle);
    await sample.waitForLine(/\[latchkey\] session started/);
    const area = await x.windowGeometry(main);

    // Borrow Seat..., at the right of the session's row, asks for the days.
    await x.xdotool(['windowfocus', '--sync', main]);
    await x.click(area.x + 380, area.y + 137);
    const prompt = await x.waitForWindow('^Latchkey Client - Borrow Seat$');
    await x.xdotool(['windowfocus', '--sync', prompt]);
    await x.xdotool(['type', '--delay', '5', '3']);
    await x.xdotool(['key', 'Return']);
    await dismissDialog('Seat Borrowed');
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
    expect(sample.output()).toContain(
      `[latchkey] dialog Seat Borrowed: ${clientMessages.seatBorrowed} (borrowed until ${shownInKolkata(validUntil)})\n`,
    );
    expect((Date.parse(validUntil) - Date.now()) / 86_400_000).toBeCloseTo(3, 2);
    const [borrowed] = await live.seatsOf(user.id);
    expect(Math.abs(Date.parse(borrowed!.borrowedUntil!) - Date.parse(validUntil))).toBeLessThan(
      1_000,
    );

    // Return Seat, beside it, gives the seat back and discards the borrowed licence.
    await x.click(area.x + 490, area.y + 137);
    await dismissDialog('Seat Returned');
    expect(sample.output()).toContain(
      `[latchkey] dialog Seat Returned: ${clientMessages.seatReturned}\n`,
    );
    expect(await live.seatsOf(user.id)).toMatchObject([{ id: borrowed!.id, borrowedUntil: null }]);
    expect(existsSync(offlineFile)).toBe(false);
  });

  // Licence keys, made through the owner API as a vendor would.
  describe('licence keys', () => {
    let proPlanId: string;
    let teamPlanId: string;
    const newKey = async (planId: string) => (await live.generateLicenseKeys(planId))[0]!;

    beforeAll(async () => {
      const [pro, team] = await Promise.all([
        live.createPlan({
          name: 'Python Pro',
          durationDays: 30,
          entitlements: ['PRO', 'EXPORT_PDF'],
          updatesForDays: 365,
        }),
        live.createPlan({ name: 'Python Team', durationDays: null, entitlements: ['TEAM'] }),
      ]);
      proPlanId = pro.id;
      teamPlanId = team.id;
    });

    /** Clicks at a point of the window (relative to its top left) and types there. */
    const typeAt = async (windowId: string, left: number, top: number, text: string) => {
      const area = await x.windowGeometry(windowId);
      await x.xdotool(['windowfocus', '--sync', windowId]);
      await x.click(area.x + left, area.y + top);
      await x.xdotool(['type', '--delay', '5', text]);
    };
    const clickAt = async (windowId: string, left: number, top: number) => {
      const area = await x.windowGeometry(windowId);
      await x.xdotool(['windowfocus', '--sync', windowId]);
      await x.click(area.x + left, area.y + top);
    };
    /** The login window's Licence key button, then the key and Log in. */
    const logInWithKey = async (key: string) => {
      await clickAt(await x.waitForWindow(loginTitle), 330, 225);
      const form = await x.waitForWindow('^Latchkey Client - Licence Key$');
      await typeAt(form, 265, 75, key);
      await clickAt(form, 105, 240);
    };
    /** Types a key and the password into the main window's redeem row and clicks Redeem. */
    const redeem = async (key: string, password: string) => {
      const main = await x.waitForWindow(mainTitle);
      await typeAt(main, 200, 307, key);
      await typeAt(main, 430, 307, password);
      await clickAt(main, 540, 307);
    };

    it('registers with a key, shows its entitlements, redeems another onto the account, and names a used key', async () => {
      const [proKey, teamKey] = await Promise.all([newKey(proPlanId), newKey(teamPlanId)]);
      const username = 'python_registered_with_key';
      const password = 'a long enough password';
      const sample = startSample(samplePath, newHome());

      await clickAt(await x.waitForWindow(loginTitle), 70, 225);
      const form = await x.waitForWindow('^Latchkey Client - Register$');
      expect(await x.windowGeometry(form)).toMatchObject({ width: 400, height: 300 });
      await typeAt(form, 265, 75, username);
      await typeAt(form, 265, 115, password);
      await typeAt(form, 265, 195, proKey.key);
      await clickAt(form, 105, 240);
      await dismissDialog('Registration Successful');
      // Then the same username and password log in, and the main screen shows the plan.
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] session started/);
      expect(sample.output()).toContain(
        '[latchkey] dialog Registration Successful: Registration successful\n',
      );
      expect(sample.output()).toContain('[latchkey] entitlements: EXPORT_PDF, PRO\n');
      expect(sample.output()).toMatch(/\[latchkey\] subscriptions: Python Pro until 20\S+\n/);
      expect(sample.output()).toMatch(/\[latchkey\] updates: Until 20\S+\n/);
      const user = await live.findEndUser(username);
      expect(await live.subscriptionsOf(user!.id)).toMatchObject([
        { planName: 'Python Pro', isActive: true },
      ]);

      await redeem(teamKey.key, password);
      await dismissDialog('Licence Key Redeemed');
      expect(sample.output()).toContain('[latchkey] entitlements: EXPORT_PDF, PRO, TEAM\n');
      expect(sample.output()).toMatch(
        /subscriptions: Python Pro until \S+, Python Team \(lifetime\)\n/,
      );
      // The lifetime plan has no updates window: every release, whatever Pro's window says.
      expect(sample.output()).toContain('[latchkey] updates: Every release\n');
      expect((await live.subscriptionsOf(user!.id)).map((held) => held.planName).sort()).toEqual([
        'Python Pro',
        'Python Team',
      ]);

      // The same key again: the code picks the title, the server's text follows it.
      await redeem(teamKey.key, password);
      await dismissDialog('Licence Key Used');
      expect(sample.output()).toContain(
        '[latchkey] dialog Licence Key Used: This licence key has already been used\n',
      );
      await x.waitForWindow(mainTitle);
      expect(sample.output()).not.toContain(password);
      await clickAt(await x.waitForWindow(mainTitle), 300, 360);
      await dismissDialog('Logged Out');
      await waitFor(async () => (await openSessionsOf(user!.id)).length === 0, 'the session end');
    });

    it('logs in with a key alone, names a used key, and says which entitlement is missing', async () => {
      const [proKey, spentKey] = await Promise.all([newKey(proPlanId), newKey(proPlanId)]);
      // Spent by a registered account: it cannot log in alone.
      await live.redeemLicenseKey(await live.createEndUser(), spentKey.key);
      const sample = startSample(samplePath, newHome());
      await logInWithKey(proKey.key);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] session started/);
      expect(sample.output()).toContain('[latchkey] entitlements: EXPORT_PDF, PRO\n');
      const keyUser = await live.findEndUser(`key-${proKey.id}`);
      expect(await openSessionsOf(keyUser!.id)).toHaveLength(1);

      await clickAt(await x.waitForWindow(mainTitle), 300, 360);
      await dismissDialog('Logged Out');
      await logInWithKey(spentKey.key);
      await dismissDialog('Licence Key Used');
      expect(sample.output()).toContain(
        '[latchkey] dialog Licence Key Used: This licence key has already been used\n',
      );
      await sample.stop();

      // A program that needs TEAM: the key's user holds only PRO and EXPORT_PDF.
      const needsTeamPath = join(workDirectory, 'latchkey_client_needs_team.py');
      writeFileSync(
        needsTeamPath,
        replaceConstant(readFileSync(samplePath, 'utf8'), 'REQUIRED_ENTITLEMENTS', '["TEAM"]'),
      );
      const needsTeam = startSample(needsTeamPath, newHome());
      const sessionRowsBefore = (await sessionsOf(keyUser!.id)).length;
      await logInWithKey(proKey.key);
      // The login itself is refused: no session is opened (and none has to be ended).
      await dismissDialog('Feature Not Included');
      expect(needsTeam.output()).toContain(
        '[latchkey] dialog Feature Not Included: Your subscription does not include this feature (missing: TEAM)\n',
      );
      expect(await x.findWindows(mainTitle)).toEqual([]);
      expect(needsTeam.output()).not.toContain('Login Successful');
      expect(await sessionsOf(keyUser!.id)).toHaveLength(sessionRowsBefore);
    });
  });
  // Devices, and releasing this one from the main window.
  describe('devices', () => {
    afterEach(async () => {
      await live.updateApplication({
        hwidLockEnabled: false,
        selfServiceReset: false,
        maxDevices: 1,
        resetCooldownHours: 168,
      });
    });

    /** Release this device..., Yes, then the password and Return in the password prompt. */
    const releaseThisDevice = async (password: string) => {
      const main = await x.waitForWindow(mainTitle);
      const area = await x.windowGeometry(main);
      await x.xdotool(['windowfocus', '--sync', main]);
      await x.click(area.x + 495, area.y + 360);
      await dismissDialog('Release This Device'); // Return: Yes, the default button
      const prompt = await x.waitForWindow('^Latchkey Client - Release Device$');
      await x.xdotool(['windowfocus', '--sync', prompt]);
      await x.xdotool(['type', '--delay', '5', password]);
      await x.xdotool(['key', 'Return']);
      await x.waitForNoWindow('^Latchkey Client - Release Device$');
    };

    it('sends the machine name, releases this device so another machine logs in, and names the cooldown and a reset not allowed', async () => {
      await live.updateApplication({
        hwidLockEnabled: true,
        selfServiceReset: true,
        resetCooldownHours: 24,
      });
      const user = await live.createEndUser();
      const home = newHome();
      const sample = startSample(samplePath, home, { TZ: 'Asia/Kolkata' });
      await logIn(user.username, user.password);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] session started/);
      const [device, ...others] = await live.devicesOf(user.id);
      expect(others).toEqual([]);
      expect(device).toMatchObject({ name: hostname() });
      expect(device!.hwid).toMatch(/^[0-9a-f]{64}$/);

      await releaseThisDevice(user.password);
      await dismissDialog('Device Released');
      await x.waitForWindow(loginTitle);
      const [{ lastSelfResetAt }] = (await live.testApp.database.db
        .select({ lastSelfResetAt: appUsers.lastSelfResetAt })
        .from(appUsers)
        .where(eq(appUsers.id, user.id))) as [{ lastSelfResetAt: Date }];
      const nextRelease = shownInKolkata(
        new Date(lastSelfResetAt.getTime() + 24 * 3_600_000).toISOString(),
      );
      expect(sample.output()).toMatch(
        /\[latchkey\] confirm Release This Device: yes\n[\s\S]*\[latchkey\] device released \(1\)\n/,
      );
      expect(sample.output()).toContain(
        `[latchkey] dialog Device Released: ${clientMessages.devicesReleased}. You can release a device again from ${nextRelease}.\n`,
      );
      expect(await live.devicesOf(user.id)).toEqual([]);
      // The server ended this device's session; the sample forgot the saved one.
      expect(await sessionsOf(user.id)).toMatchObject([{ endReason: 'device_released' }]);
      expect(existsSync(savedSessionFile(home))).toBe(false);
      expect(await live.loginFrom(user, 'another-machine')).toBe('OK');

      // A second seat, so that this machine logs in again beside the other one.
      await live.updateApplication({ maxDevices: 2 });
      await logIn(user.username, user.password);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/session started[\s\S]*session started/);
      await releaseThisDevice(user.password);
      await dismissDialog('Reset Not Yet Available');
      expect(sample.output()).toContain(
        `[latchkey] dialog Reset Not Yet Available: ${clientMessages.resetCooldown} (next release possible at ${nextRelease})\n`,
      );
      await x.waitForWindow(mainTitle);
      expect(await live.devicesOf(user.id)).toHaveLength(2);

      await live.updateApplication({ selfServiceReset: false });
      await releaseThisDevice(user.password);
      await dismissDialog('Reset Not Allowed');
      expect(sample.output()).toContain(
        `[latchkey] dialog Reset Not Allowed: ${clientMessages.resetNotAllowed}\n`,
      );
      expect(await live.devicesOf(user.id)).toHaveLength(2);
      expect(await openSessionsOf(user.id)).toHaveLength(1);
      expect(sample.output()).not.toContain(user.password);
    });
  });

  // The offline licence. Offline is the same program with its base URL on a closed port: every
  // call fails to connect, as with no network.
  describe('offline licence', () => {
    let offlineCode: string;
    let offlinePath: string;
    beforeAll(async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as { port: number };
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      offlineCode = replaceConstant(
        readFileSync(samplePath, 'utf8'),
        'BASE_URL',
        `"http://127.0.0.1:${port}"`,
      );
      offlinePath = join(workDirectory, 'latchkey_client_offline.py');
      writeFileSync(offlinePath, offlineCode);
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
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

    /** Logs in online and waits for the licence to be stored; the program keeps running. */
    const logInAndCheckOut = async (user: { username: string; password: string }, home: string) => {
      const sample = startSample(samplePath, home);
      await logIn(user.username, user.password);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] offline licence stored \(valid until \S+\)\n/);
      return sample;
    };

    /** Starts the program offline: the saved session's verify cannot connect. */
    const startOffline = (home: string, path = offlinePath) => {
      const sample = startSample(path, home, { TZ: 'Asia/Kolkata' });
      return sample;
    };
    const expectRefused = async (home: string, text: string, path = offlinePath) => {
      const sample = startOffline(home, path);
      await dismissDialog('Offline Licence Refused');
      expect(sample.output()).toContain(`[latchkey] dialog Offline Licence Refused: ${text}\n`);
      expect(sample.output()).toMatch(/\[latchkey\] Verification error: .*Connection refused/);
      await x.waitForWindow(loginTitle);
      expect(await x.findWindows(mainTitle)).toEqual([]);
      await sample.stop();
    };

    it('checks out a licence after login, keeps last_seen with each heartbeat, and works offline on it until valid_until', async () => {
      const user = await live.createEndUser();
      const home = newHome();
      const online = await logInAndCheckOut(user, home);
      const stored = storedLicense(home);
      expect(stored.license).toMatch(/^LK1\.[\w-]+\.[\w-]+$/);
      const content = contentOf(stored.license);
      const [session] = await sessionsOf(user.id);
      expect(content).toMatchObject({
        username: user.username,
        application_id: live.application.id,
        hwid: session!.hwid,
      });
      const days = (Date.parse(content.valid_until) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);
      expect(Math.abs(stored.last_seen - Date.now() / 1000)).toBeLessThan(10);

      // A heartbeat moves last_seen on to now.
      const hourAgo = Math.floor(Date.now() / 1000) - 3600;
      writeFileSync(offlineFile(home), JSON.stringify({ ...stored, last_seen: hourAgo }));
      await waitFor(
        async () => storedLicense(home).last_seen > hourAgo + 3000,
        'a heartbeat to move last_seen',
      );
      await online.stop();
      // A licence cannot be recalled: pausing the user (which ends the killed program's session)
      // changes nothing offline.
      await live.pauseEndUser(user.id);

      const sample = startOffline(home);
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(
        new RegExp(
          `\\[latchkey\\] Working offline until ${escaped(shownInKolkata(content.valid_until))}\\n`,
        ),
      );
      expect(sample.output()).toContain('[latchkey] offline licence accepted\n');
      expect(sample.output()).not.toContain('dialog Server Unreachable');
      // No session offline: none started, so no heartbeat and no periodic verify.
      expect(sample.output()).not.toMatch(/session started|heartbeat|verify failed/i);
      expect(await sessionsOf(user.id)).toHaveLength(1);
      expect(storedLicense(home).license).toBe(stored.license);
    });

    it("refuses another machine's licence, an edited one and a clock set back; with none, says the server is unreachable", async () => {
      const user = await live.createEndUser();
      const home = newHome();
      await (await logInAndCheckOut(user, home)).stop();
      const stored = storedLicense(home);

      // Another machine: the same program reading another machine identifier.
      const machineId = join(home, 'another-machine-id');
      writeFileSync(machineId, '0123456789abcdef0123456789abcdef\n');
      const anotherMachinePath = join(workDirectory, 'latchkey_client_another_machine.py');
      writeFileSync(
        anotherMachinePath,
        replaceConstant(offlineCode, 'MACHINE_ID_FILES', `(${JSON.stringify(machineId)},)`),
      );
      await expectRefused(
        home,
        'This offline licence belongs to another machine.',
        anotherMachinePath,
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
      expect(storedLicense(home).last_seen).toBe(dayAhead);

      // The genuine licence back: the same machine, a sane clock, and it holds.
      writeFileSync(offlineFile(home), JSON.stringify(stored));
      const accepted = startOffline(home);
      await x.waitForWindow(mainTitle);
      await accepted.waitForLine(/\[latchkey\] Working offline until /);
      await accepted.stop();

      rmSync(offlineFile(home));
      const none = startOffline(home);
      await dismissDialog('Server Unreachable');
      expect(none.output()).toContain(
        '[latchkey] dialog Server Unreachable: Cannot reach the server, and there is no offline licence on this machine.\n',
      );
      await x.waitForWindow(loginTitle);
      await none.stop();
    });

    it('carries on online when the checkout is refused, and offline then says the server is unreachable', async () => {
      // A week is past this application's limit: the checkout is a 400 INVALID_REQUEST.
      await live.updateApplication({ maxOfflineDays: 1 });
      try {
        const user = await live.createEndUser();
        const home = newHome();
        const online = startSample(samplePath, home);
        await logIn(user.username, user.password);
        await dismissDialog('Login Successful');
        await x.waitForWindow(mainTitle);
        await online.waitForLine(/\[latchkey\] licence checkout refused: INVALID_REQUEST\n/);
        await online.waitForLine(/licence checkout refused[\s\S]*\[latchkey\] heartbeat ok\n/);
        expect(existsSync(offlineFile(home))).toBe(false);
        await online.stop();

        const offline = startOffline(home);
        await dismissDialog('Server Unreachable');
        expect(offline.output()).toContain(
          '[latchkey] dialog Server Unreachable: Cannot reach the server, and there is no offline licence on this machine.\n',
        );
        await x.waitForWindow(loginTitle);
        await offline.stop();
      } finally {
        await live.updateApplication({ maxOfflineDays: 30 });
      }
    });

    it('refuses a licence past its valid_until, the account expiry it was bound by', async () => {
      const user = await live.createEndUser();
      const updated = await live.updateEndUser(user.id, {
        expiresAt: new Date(Date.now() + 12_000).toISOString(),
      });
      const home = newHome();
      await (await logInAndCheckOut(user, home)).stop();
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
  });

  // Remote variables, set by the owner as the console does.
  describe('remote variables', () => {
    /** Types a note into the main window's note box and clicks Save Note. */
    const saveNote = async (text: string) => {
      const main = await x.waitForWindow(mainTitle);
      const area = await x.windowGeometry(main);
      await x.xdotool(['windowfocus', '--sync', main]);
      await x.click(area.x + 96, area.y + 360);
      await x.xdotool(['type', '--delay', '5', text]);
      await x.click(area.x + 194, area.y + 360);
    };

    it('shows no message and no note where neither exists', async () => {
      const user = await live.createEndUser();
      const sample = startSample(samplePath, newHome());
      await logIn(user.username, user.password);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] no message\n/);
      await sample.waitForLine(/\[latchkey\] no note\n/);
      expect(sample.output()).not.toMatch(/\[latchkey\] (Message|Note)[: ]/);
    });

    it('shows the welcome message and the note, saves a note the owner then sees, and refuses a read-only one', async () => {
      const welcome = 'Hello from the vendor (python test)';
      await live.createVariable({ name: 'welcome_message', value: welcome });
      const user = await live.createEndUser();
      await live.setUserVariable(user.id, 'note', { value: 'set by the vendor' });
      const sample = startSample(samplePath, newHome());
      await logIn(user.username, user.password);
      await dismissDialog('Login Successful');
      await x.waitForWindow(mainTitle);
      await sample.waitForLine(/\[latchkey\] Message: Hello from the vendor \(python test\)\n/);
      await sample.waitForLine(/\[latchkey\] Note: set by the vendor\n/);
      await x.xdotool(['mousemove', '1000', '700']);
      const area = await x.windowGeometry(await x.waitForWindow(mainTitle));
      x.screenshot(
        join(samplesDirectory, 'test-results', 'python-main-screen-variables.png'),
        area,
      );

      await saveNote('written by the sample');
      await dismissDialog('Note Saved');
      expect(sample.output()).toContain('[latchkey] dialog Note Saved: Note saved.\n');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'written by the sample', readOnly: false },
      ]);

      await live.setUserVariable(user.id, 'note', { value: 'locked', readOnly: true });
      await saveNote('an attempt to change it');
      await dismissDialog('Note Is Read-Only');
      expect(sample.output()).toMatch(/\[latchkey\] dialog Note Is Read-Only: .+\n/);
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'locked', readOnly: true },
      ]);
      await x.waitForWindow(mainTitle);
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
      olderCode = replaceConstant(readFileSync(samplePath, 'utf8'), 'APP_VERSION', '"0.0.1"');
    });

    /**
     * A program (the older one unless told) alone in a folder of its own, where it saves what it
     * downloads.
     */
    const olderProgram = (code = olderCode) => {
      const directory = mkdtempSync(join(workDirectory, 'update-'));
      const path = join(directory, 'latchkey_client.py');
      writeFileSync(path, code);
      return { directory, path };
    };
    /** Logs in with the older program and answers Yes to the offer (Return: the default). */
    const acceptOffer = async () => {
      const user = await live.createEndUser();
      await logIn(user.username, user.password);
      await dismissDialog('Update Required');
      await dismissDialog('Update Available');
    };

    it('downloads the offered release beside the program and keeps it when its SHA-256 matches', async () => {
      const { directory, path } = olderProgram();
      const sample = startSample(path, newHome());
      await acceptOffer();
      await dismissDialog('Update Saved');
      const saved = join(directory, 'update-9.9.9.bin');
      expect(sample.output()).toContain(
        '[latchkey] confirm Update Available: Version 9.9.9 is available. Download it?\n',
      );
      expect(sample.output()).toContain(
        `[latchkey] dialog Update Saved: Update saved to ${saved}\n`,
      );
      expect(await sample.exitCode()).toBe(1);
      expect(readFileSync(saved).equals(releaseBytes)).toBe(true);
      expect(readdirSync(directory).sort()).toEqual(['latchkey_client.py', 'update-9.9.9.bin']);
    });

    it('refuses a download changed on the way and keeps nothing', async () => {
      const { directory, path } = olderProgram(
        olderCode.replaceAll(JSON.stringify(live.baseUrl), JSON.stringify(proxy.baseUrl)),
      );
      proxy.state.tamperPathPrefix = '/api/v1/downloads';
      proxy.state.tamper = true;
      const sample = startSample(path, newHome());
      await acceptOffer();
      await dismissDialog('Update Refused');
      expect(sample.output()).toContain(
        '[latchkey] dialog Update Refused: The download does not match its signed SHA-256.\n',
      );
      expect(await sample.exitCode()).toBe(1);
      expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
      expect(readdirSync(directory)).toEqual(['latchkey_client.py']);
    });

    it('offers the release the licence includes on UPDATES_EXPIRED, when this version came out after the updates period', async () => {
      // The program as rendered: the application's own version, published past the user's window.
      const user = await live.createEndUser();
      try {
        await live.endUpdatesWindowAt(user.id, release);
        const { directory, path } = olderProgram(readFileSync(samplePath, 'utf8'));
        const sample = startSample(path, newHome());
        await logIn(user.username, user.password);
        await dismissDialog('Updates Ended');
        await dismissDialog('Included Release');
        await dismissDialog('Update Saved');
        const saved = join(directory, 'update-9.9.9.bin');
        expect(sample.output()).toContain(
          `[latchkey] dialog Updates Ended: ${clientMessages.updatesExpired}\n`,
        );
        expect(sample.output()).toContain(
          '[latchkey] confirm Included Release: Your licence includes version 9.9.9. Download it?\n',
        );
        expect(sample.output()).toContain(
          `[latchkey] dialog Update Saved: Update saved to ${saved}\n`,
        );
        expect(await sample.exitCode()).toBe(1);
        expect(readFileSync(saved).equals(releaseBytes)).toBe(true);
        expect(await sessionsOf(user.id)).toEqual([]);
      } finally {
        await live.setCurrentRelease(release.id);
      }
    });
  });
});
