import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  FORGOT_PASSWORD_ANSWER,
  VERIFICATION_RESEND_ANSWER,
  offlineLicenseContentSchema,
} from '@latchkey/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appUserSessions, appUsers, mailMessages } from '../../apps/server/src/db/schema/index.ts';
import { clientMessages } from '../../apps/server/src/modules/client-api/client-outcomes.ts';
import {
  installCsharpSdkPackage,
  type InstalledCsharpSdkPackage,
} from '../../sdks/test/installed-csharp-sdk.ts';
import { compileCsharp } from './csharp-build.ts';
import { replaceConstant, startLiveLatchkey, type LiveLatchkey } from './live-latchkey.ts';
import { hasTool } from './require-tool.ts';
import { startTamperingProxy } from './tampering-proxy.ts';
import { saveScreenRegionAsPng } from './xwd-screenshot.ts';

const run = promisify(execFile);
const resultsDirectory = fileURLToPath(new URL('../test-results/', import.meta.url));
const isAvailable =
  hasTool('mcs', ['--version'], 'mono-mcs libmono-system-windows-forms4.0-cil') &&
  hasTool('mono', ['--version'], 'mono-runtime') &&
  hasTool('Xvfb', ['-help'], 'xvfb xauth') &&
  hasTool('xdotool', ['--version'], 'xdotool') &&
  hasTool('sh', ['-c', 'command -v nuget'], 'nuget');
/** Namespaces of its own (user, host name) let a test run the sample as another machine. */
const canUnshare =
  isAvailable && hasTool('unshare', ['--map-root-user', '--uts', 'true'], 'util-linux');

const loginWindow = '^Latchkey Login$';
const mainWindow = (username: string) => `^Latchkey - Signed in as ${username}$`;
const notVerifiedText = 'The server response could not be verified.';

/**
 * The C# WinForms sample, rendered by the server for a live application, compiled with Mono's
 * mcs against the Latchkey.Client SDK as a vendor installs it (built, packed and installed from
 * its nupkg with nuget, outside the repository) and driven in a real window under Xvfb with
 * xdotool: what the server sees (live sessions, heartbeats) and what the screen shows (window
 * and dialog titles).
 */
describe.runIf(isAvailable)('C# sample against a live Latchkey', () => {
  let live: LiveLatchkey;
  let sdk: InstalledCsharpSdkPackage;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let workDirectory: string;
  let clientProgram: string;
  let proxiedClientProgram: string;
  /** The same program with its BaseUrl on a closed port: the server cannot be reached. */
  let offlineClientProgram: string;
  let xvfb: ChildProcess | undefined;
  let display: string;
  let framebufferFile: string;
  const clients: SampleClient[] = [];

  beforeAll(async () => {
    [live, sdk] = await Promise.all([startLiveLatchkey(), installCsharpSdkPackage()]);
    proxy = await startTamperingProxy(live.baseUrl);
    await live.updateApplication({
      loginFailedMessage: 'Those details do not open Sample under test',
    });
    workDirectory = mkdtempSync(join(tmpdir(), 'latchkey-csharp-'));

    let code = await live.renderSample('csharp');
    code = replaceConstant(code, 'HEARTBEAT_INTERVAL_SECONDS', 1);
    code = replaceConstant(code, 'VERIFY_INTERVAL_SECONDS', 1);
    const proxiedCode = code.replaceAll(
      JSON.stringify(live.baseUrl),
      JSON.stringify(proxy.baseUrl),
    );
    expect(proxiedCode).not.toBe(code);
    const offlineCode = code.replaceAll(
      JSON.stringify(live.baseUrl),
      JSON.stringify(`http://127.0.0.1:${await closedPort()}`),
    );
    writeFileSync(join(workDirectory, 'LatchkeyClient.cs'), code);
    mkdirSync(join(workDirectory, 'proxied'));
    writeFileSync(join(workDirectory, 'proxied', 'LatchkeyClient.cs'), proxiedCode);
    mkdirSync(join(workDirectory, 'offline'));
    writeFileSync(join(workDirectory, 'offline', 'LatchkeyClient.cs'), offlineCode);
    clientProgram = join(workDirectory, 'client.exe');
    proxiedClientProgram = join(workDirectory, 'proxied', 'client.exe');
    offlineClientProgram = join(workDirectory, 'offline', 'client.exe');
    await Promise.all([
      compileCsharp({
        sources: [join(workDirectory, 'LatchkeyClient.cs')],
        output: clientProgram,
        target: 'winexe',
        sdkDll: sdk.installedDll,
      }),
      compileCsharp({
        sources: [join(workDirectory, 'proxied', 'LatchkeyClient.cs')],
        output: proxiedClientProgram,
        target: 'winexe',
        sdkDll: sdk.installedDll,
      }),
      compileCsharp({
        sources: [join(workDirectory, 'offline', 'LatchkeyClient.cs')],
        output: offlineClientProgram,
        target: 'winexe',
        sdkDll: sdk.installedDll,
      }),
    ]);

    const framebufferDirectory = join(workDirectory, 'framebuffer');
    mkdirSync(framebufferDirectory);
    const number = freeDisplayNumber();
    display = `:${number}`;
    // -noreset: by default Xvfb resets when its last client disconnects, and a client that
    // connects during the reset cannot open the display (Mono's "Could not open display"). The
    // offline tests start a client right after the only other one closed, and met it often.
    xvfb = spawn(
      'Xvfb',
      [
        display,
        '-screen',
        '0',
        '1024x768x24',
        '-nolisten',
        'tcp',
        '-noreset',
        '-fbdir',
        framebufferDirectory,
      ],
      { stdio: 'ignore' },
    );
    framebufferFile = join(framebufferDirectory, 'Xvfb_screen0');
    await waitFor(
      () => existsSync(`/tmp/.X11-unix/X${number}`) && existsSync(framebufferFile),
      10_000,
      'Xvfb to start',
    );
  });

  // Each client is gone before the next test starts one.
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.stopAndWait()));
  });

  afterAll(async () => {
    for (const client of clients.splice(0)) client.stop();
    xvfb?.kill('SIGTERM');
    await proxy?.close();
    await live?.close();
    await sdk?.remove();
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  // ── driving the GUI ─────────────────────────────────────────────────────────────────────

  const xdotool = async (...args: string[]) =>
    (await run('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 5_000 }))
      .stdout;

  const findWindows = async (namePattern: string) => {
    try {
      return (await xdotool('search', '--onlyvisible', '--name', namePattern))
        .split('\n')
        .filter(Boolean);
    } catch {
      return []; // xdotool exits 1 when nothing matches
    }
  };

  const waitForWindow = async (namePattern: string, timeoutMs = 15_000) => {
    let found: string[] = [];
    try {
      await waitFor(
        async () => (found = await findWindows(namePattern)).length > 0,
        timeoutMs,
        `a window named ${namePattern}`,
      );
    } catch (error) {
      // Say what was on the screen instead: an error dialog and a slow start look alike here.
      throw new Error(
        `${(error as Error).message}; visible windows: ${await visibleWindowNames()}`,
      );
    }
    return found[0]!;
  };

  const visibleWindowNames = async () => {
    const names = await Promise.all(
      (await findWindows('.')).map((id) => xdotool('getwindowname', id).catch(() => '?')),
    );
    return JSON.stringify(names.map((name) => name.trim()).filter(Boolean));
  };

  const geometry = async (windowId: string) => {
    const shell = await xdotool('getwindowgeometry', '--shell', windowId);
    const value = (name: string) => Number(new RegExp(`^${name}=(-?\\d+)$`, 'm').exec(shell)![1]);
    return { x: value('X'), y: value('Y'), width: value('WIDTH'), height: value('HEIGHT') };
  };

  /**
   * A fresh Mono process shows its first window after JIT-compiling WinForms: seconds when the
   * machine is quiet, more than 15 when CI runs another test file beside this one (seen twice
   * on 2026-11-25), and once more than 45 (a fresh-clone run the same evening, the sixth
   * client of the file, while the PGlite step's other files ran). A condition, not a pause:
   * the longer bound costs time only on failure, and the tests' 105 s still leave room.
   */
  const FIRST_WINDOW_TIMEOUT_MS = 75_000;

  /** Clicks into the username field, types both fields and presses Enter (the Login button). */
  const submitLogin = async (username: string, password: string) => {
    const windowId = await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS);
    await xdotool('windowfocus', '--sync', windowId);
    const { x, y } = await geometry(windowId);
    await xdotool('mousemove', String(x + 150), String(y + 78));
    await sleep(200);
    await xdotool('click', '1');
    await sleep(100);
    await xdotool('type', '--delay', '15', username);
    await xdotool('key', 'Tab');
    await xdotool('type', '--delay', '15', password);
    await xdotool('key', 'Return');
  };

  /** Focuses a window and clicks at a point of it (relative to its top left). */
  const clickAt = async (windowId: string, left: number, top: number) => {
    await xdotool('windowfocus', '--sync', windowId);
    const { x, y } = await geometry(windowId);
    await xdotool('mousemove', String(x + left), String(y + top));
    await sleep(200);
    await xdotool('click', '1');
    await sleep(100);
  };

  /** Waits for a dialog with this title, closes it with Enter, and waits until it is gone. */
  const dismissDialog = async (title: string) => {
    const windowId = await waitForWindow(`^${title}$`);
    await waitFor(
      async () => {
        await xdotool('windowfocus', '--sync', windowId).catch(() => '');
        await xdotool('key', 'Return').catch(() => '');
        await sleep(300);
        return (await findWindows(`^${title}$`)).length === 0;
      },
      10_000,
      `the ${title} dialog to close`,
    );
  };

  /**
   * Closes a dialog with Enter like dismissDialog, but presses again only after 3 s: the
   * window under it acts on Enter too (the main window's focused Release button, the login
   * window's Login button), so an Enter meant for a dialog slow to close must not reach it.
   */
  const closeDialog = async (title: string) => {
    const windowId = await waitForWindow(`^${title}$`);
    const isGone = async () => (await findWindows(`^${title}$`)).length === 0;
    await waitFor(
      async () => {
        await xdotool('windowfocus', '--sync', windowId).catch(() => '');
        if (await isGone()) return true;
        await xdotool('key', 'Return').catch(() => '');
        await waitFor(isGone, 3_000, `the ${title} dialog to close`).catch(() => undefined);
        return isGone();
      },
      15_000,
      `the ${title} dialog to close`,
    );
  };

  const startClient = (
    program: string,
    home = mkdtempSync(join(workDirectory, 'home-')),
    extraEnv: Record<string, string> = {},
    isOnAnotherMachine = false,
  ) => {
    const client = new SampleClient(program, display, home, extraEnv, isOnAnotherMachine);
    clients.push(client);
    return client;
  };

  const sessionRows = (userId: string) =>
    live.testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, userId));
  /** The SDK's heartbeat loop reports no success: the server's record of one is the proof. */
  const waitForHeartbeat = (userId: string) =>
    waitFor(
      async () =>
        (await sessionRows(userId)).some(
          (row) => row.endedAt === null && row.lastHeartbeatAt > row.startedAt,
        ),
      10_000,
      'a heartbeat to move last_heartbeat_at',
    );

  const savedSessionFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.json`);
  const offlineStateFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.offline.json`);
  const readOfflineState = (home: string) =>
    offlineStateSchema.parse(JSON.parse(readFileSync(offlineStateFile(home), 'utf8')));

  // ── the proof ───────────────────────────────────────────────────────────────────────────

  it('logs in, starts a session the server sees, heartbeats, and is forced out when the owner pauses the user', async () => {
    const user = await live.createEndUser();
    const client = startClient(clientProgram);
    await submitLogin(user.username, user.password);
    await client.waitForLine(dialogLine('Login Successful', live.application.loginSuccessMessage));
    await dismissDialog('Login Successful');
    const mainId = await waitForWindow(mainWindow(user.username));
    await client.waitForLine(/^\[latchkey\] session started \(sess_/);

    await waitFor(async () => (await live.activeSessionCount()) === 1, 10_000, 'a live session');
    const [startedRow] = await sessionRows(user.id);
    expect(startedRow?.endedAt).toBeNull();
    await waitFor(
      async () => {
        const [row] = await sessionRows(user.id);
        return row!.lastHeartbeatAt.getTime() > startedRow!.lastHeartbeatAt.getTime();
      },
      10_000,
      'a heartbeat to move last_heartbeat_at',
    );
    expect(JSON.parse(readFileSync(savedSessionFile(client.home), 'utf8'))).toMatchObject({
      user_id: user.id,
    });

    mkdirSync(resultsDirectory, { recursive: true });
    await sleep(300);
    const screenshot = saveScreenRegionAsPng(
      framebufferFile,
      await geometry(mainId),
      join(resultsDirectory, 'csharp-main-screen.png'),
    );
    expect(screenshot.distinctColours).toBeGreaterThan(2);

    await live.pauseEndUser(user.id);
    await waitForWindow('^Session Expired$', 20_000);
    await client.waitForLine(/^\[latchkey\] verify failed \(3\/3\)$/);
    await client.waitForLine(/^\[latchkey\] forced logout$/);
    await client.waitForLine(
      dialogLine('Session Expired', 'Your session has expired. Please login again.'),
    );
    expect(await live.activeSessionCount()).toBe(0);
    await dismissDialog('Session Expired');
    await waitForWindow(loginWindow);
    expect(await findWindows(mainWindow(user.username))).toEqual([]);
    expect(existsSync(savedSessionFile(client.home))).toBe(false);
    // Monitoring stopped: no heartbeat or verify after the forced logout.
    const linesAfterLogout = client.lines.length;
    await sleep(2_500);
    expect(
      client.lines.slice(linesAfterLogout).filter((line) => /heartbeat|verify/.test(line)),
    ).toEqual([]);
  }, 90_000);

  it("refuses a wrong password with the application's own message and starts no session", async () => {
    const user = await live.createEndUser();
    const client = startClient(clientProgram);
    await submitLogin(user.username, 'not the password');
    await waitForWindow('^Login Failed$');
    await client.waitForLine(dialogLine('Login Failed', live.application.loginFailedMessage));
    await client.waitForLine(
      new RegExp(
        `^\\[latchkey\\] login failed \\(INVALID_CREDENTIALS\\): ${escapeRegExp(live.application.loginFailedMessage)}$`,
      ),
    );
    expect(live.application.loginFailedMessage).toBe('Those details do not open Sample under test');
    await dismissDialog('Login Failed');
    await waitForWindow(loginWindow);
    expect(await sessionRows(user.id)).toEqual([]);
    expect(client.lines.join('\n')).not.toContain('not the password');
  }, 75_000);

  it('shows Hardware Mismatch when the account is bound to another device', async () => {
    await live.updateApplication({ hwidLockEnabled: true });
    try {
      const user = await live.createEndUser({ hwid: 'another-device' });
      const client = startClient(clientProgram);
      await submitLogin(user.username, user.password);
      await waitForWindow('^Hardware Mismatch$');
      await client.waitForLine(
        dialogLine('Hardware Mismatch', live.application.hwidMismatchMessage),
      );
      await client.waitForLine(
        new RegExp(
          `^\\[latchkey\\] login failed \\(HWID_MISMATCH\\): ${escapeRegExp(live.application.hwidMismatchMessage)}$`,
        ),
      );
      expect(await findWindows(mainWindow(user.username))).toEqual([]);
      expect(await sessionRows(user.id)).toEqual([]);
    } finally {
      await live.updateApplication({ hwidLockEnabled: false });
    }
  }, 75_000);

  it('refuses a tampered answer: not verified, no login, no session', async () => {
    const user = await live.createEndUser();
    const client = startClient(proxiedClientProgram);
    proxy.state.tamper = true;
    try {
      await submitLogin(user.username, user.password);
      await waitForWindow('^Security Warning$');
      await client.waitForLine(dialogLine('Security Warning', notVerifiedText));
      await client.waitForLine(/^\[latchkey\] response not verified \(signature\)$/);
    } finally {
      proxy.state.tamper = false;
    }
    expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
    expect(await findWindows('^Login Successful$')).toEqual([]);
    await dismissDialog('Security Warning');
    await waitForWindow(loginWindow);
    expect(await findWindows(mainWindow(user.username))).toEqual([]);
    expect(client.lines.join('\n')).not.toMatch(/login ok|session started/);
    expect(await sessionRows(user.id)).toEqual([]);
    expect(await live.activeSessionCount()).toBe(0);
  }, 75_000);

  it('verifies a saved session on the next start, resumes it, and forgets it once the server refuses it', async () => {
    const user = await live.createEndUser();
    const first = startClient(clientProgram);
    await submitLogin(user.username, user.password);
    await dismissDialog('Login Successful');
    await waitForWindow(mainWindow(user.username));
    await first.waitForLine(/^\[latchkey\] session started/);
    first.stop();
    await waitFor(
      async () => (await findWindows(mainWindow(user.username))).length === 0,
      10_000,
      'the first client to close',
    );

    const second = startClient(clientProgram, first.home);
    await second.waitForLine(/^\[latchkey\] saved session verified$/, FIRST_WINDOW_TIMEOUT_MS);
    await waitForWindow(mainWindow(user.username));
    // The SDK resumes the saved session (a heartbeat with its token) rather than starting another.
    await second.waitForLine(/^\[latchkey\] session resumed \(sess_/);
    expect(await sessionRows(user.id)).toMatchObject([{ endedAt: null }]);
    expect(second.lines.join('\n')).not.toContain('login ok');
    second.stop();
    await waitFor(
      async () => (await findWindows(mainWindow(user.username))).length === 0,
      10_000,
      'the second client to close',
    );

    await live.pauseEndUser(user.id);
    const third = startClient(clientProgram, first.home);
    await third.waitForLine(
      /^\[latchkey\] saved session refused \(ACCOUNT_DISABLED\)$/,
      FIRST_WINDOW_TIMEOUT_MS,
    );
    await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS);
    expect(existsSync(savedSessionFile(first.home))).toBe(false);
    expect(await findWindows(mainWindow(user.username))).toEqual([]);
  }, 90_000);

  // Without SMTP_URL the test server's mail goes to its local mailbox: a queued row per message.
  it('asks for a reset link by username and by e-mail from Forgot password?, and shows the answer', async () => {
    const user = await live.createEndUser();
    const email = `${user.username}@example.com`;
    await live.updateEndUser(user.id, { email });
    const client = startClient(clientProgram);

    for (const usernameOrEmail of [user.username, email.toUpperCase()]) {
      await clickAt(await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS), 175, 238);
      const prompt = await waitForWindow('^Latchkey Forgot Password$');
      await clickAt(prompt, 265, 71);
      await xdotool('type', '--delay', '15', usernameOrEmail);
      await xdotool('key', 'Return');
      await closeDialog('Check Your E-mail');
    }
    const answerLine = dialogLine('Check Your E-mail', FORGOT_PASSWORD_ANSWER);
    expect(client.lines.filter((line) => answerLine.test(line))).toHaveLength(2);
    const mails = await live.testApp.database.db
      .select({ recipient: mailMessages.recipient })
      .from(mailMessages)
      .where(and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'password_reset')));
    expect(mails).toEqual([{ recipient: email }, { recipient: email }]);
  }, 120_000); // a fresh client: up to 75 s to its first window

  it('names an unconfirmed address at login, and mails a new link to confirm it from Resend verification e-mail', async () => {
    await live.updateApplication({ requireVerifiedEmail: true });
    try {
      const user = await live.createEndUser();
      const email = `${user.username}@example.com`;
      await live.updateEndUser(user.id, { email });
      const client = startClient(clientProgram);
      await submitLogin(user.username, user.password);
      await client.waitForLine(
        dialogLine(
          'E-mail Not Verified',
          `${clientMessages.emailNotVerified} Click "Resend verification e-mail" in the login window to be mailed a new link.`,
        ),
      );
      await closeDialog('E-mail Not Verified');

      // The username and password are still in the window: the link sends them.
      await clickAt(await waitForWindow(loginWindow), 175, 260);
      await client.waitForLine(dialogLine('Check Your E-mail', VERIFICATION_RESEND_ANSWER));
      await closeDialog('Check Your E-mail');
      expect(client.lines.some((line) => line.includes('login ok'))).toBe(false);
      expect(await sessionRows(user.id)).toEqual([]);
      const mails = await live.testApp.database.db
        .select({ recipient: mailMessages.recipient })
        .from(mailMessages)
        .where(
          and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'email_verification')),
        );
      expect(mails).toEqual([{ recipient: email }]);
    } finally {
      await live.updateApplication({ requireVerifiedEmail: false });
    }
  }, 120_000); // a fresh client: up to 75 s to its first window
  // The offline licence, checked out after each login and used when the server cannot be
  // reached (the program built with its BaseUrl on a closed port).
  describe('offline licence', () => {
    /** A home where a user logged in online and the program then closed: its saved session and licence. */
    let onlineHome: string;
    let onlineUser: Awaited<ReturnType<LiveLatchkey['createEndUser']>>;

    /**
     * Logs a user in online until the licence is saved and a heartbeat has run, then stops the
     * program (the saved session stays). `beforeLogin` runs once the login window is up.
     */
    const logInOnlineAndStop = async (
      user: { id: string; username: string; password: string },
      beforeLogin: () => Promise<unknown> = async () => undefined,
    ) => {
      const client = startClient(clientProgram);
      await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS);
      await beforeLogin();
      await submitLogin(user.username, user.password);
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(user.username));
      await client.waitForLine(/^\[latchkey\] offline licence saved \(valid until /);
      await waitForHeartbeat(user.id);
      await client.stopAndWait();
      await waitFor(
        async () => (await findWindows(mainWindow(user.username))).length === 0,
        10_000,
        'the online client to close',
      );
      await endKilledSessions(user);
      return client;
    };
    /**
     * The program was killed (no window manager here to close it as a user would), so its
     * session stays live on the server until it goes idle (90 s): end it as going idle does,
     * so that later tests counting the application's live sessions start from none.
     */
    const endKilledSessions = (user: { id: string }) =>
      live.testApp.database.db
        .update(appUserSessions)
        .set({ endedAt: new Date(), endReason: 'idle' })
        .where(and(eq(appUserSessions.appUserId, user.id), isNull(appUserSessions.endedAt)));
    /** A copy of the online home, its offline state changed by `edit`. */
    const homeWithState = (edit: (state: OfflineState) => OfflineState = (state) => state) => {
      const home = mkdtempSync(join(workDirectory, 'home-'));
      cpSync(join(onlineHome, '.latchkey'), join(home, '.latchkey'), { recursive: true });
      writeFileSync(offlineStateFile(home), JSON.stringify(edit(readOfflineState(onlineHome))));
      return home;
    };
    const startOffline = (home: string, isOnAnotherMachine = false) =>
      startClient(offlineClientProgram, home, { TZ: 'Asia/Kolkata' }, isOnAnotherMachine);
    /** Starts offline and waits for the refusal dialog, its text, and the login window after it. */
    const expectRefusal = async (client: SampleClient, title: string, text: string) => {
      await waitForWindow(`^${title}$`, FIRST_WINDOW_TIMEOUT_MS).catch((error: Error) => {
        throw new Error(`${error.message}; the client printed:\n${client.lines.join('\n')}`);
      });
      await client.waitForLine(dialogLine(title, text));
      await dismissDialog(title);
      await waitForWindow(loginWindow);
      expect(client.lines.join('\n')).not.toMatch(/offline licence accepted|Working offline/);
    };

    beforeAll(async () => {
      onlineUser = await live.createEndUser();
      onlineHome = (await logInOnlineAndStop(onlineUser)).home;
    });

    it('checks out a licence for this machine after login, and starts offline with it: the user, until when, no heartbeat', async () => {
      const state = readOfflineState(onlineHome);
      expect(state.application_id).toBe(live.application.id);
      expect(state.license).toMatch(/^LK1\.[\w-]+\.[\w-]+$/);
      expect(Math.abs(state.last_seen - Date.now() / 1000)).toBeLessThan(60);
      const content = licenseContent(state.license);
      const [session] = await sessionRows(onlineUser.id);
      expect(content).toMatchObject({
        application_id: live.application.id,
        user_id: onlineUser.id,
        username: onlineUser.username,
        hwid: session!.hwid,
      });
      expect(content.hwid).toMatch(/^[\w+/]{32}$/);
      // OFFLINE_LICENSE_TTL_SECONDS: seven days.
      const validUntil = new Date(content.valid_until);
      expect(validUntil.getTime() - Date.parse(content.issued_at)).toBe(604_800_000);

      const offline = startOffline(onlineHome);
      await offline.waitForLine(/^\[latchkey\] server unreachable \(/, FIRST_WINDOW_TIMEOUT_MS);
      await offline.waitForLine(/^\[latchkey\] offline licence accepted$/);
      await offline.waitForLine(
        new RegExp(
          `^\\[latchkey\\] status: Working offline until ${escapeRegExp(shownInKolkata(validUntil))}$`,
        ),
      );
      const mainId = await waitForWindow(mainWindow(onlineUser.username));
      mkdirSync(resultsDirectory, { recursive: true });
      await sleep(300);
      const screenshot = saveScreenRegionAsPng(
        framebufferFile,
        await geometry(mainId),
        join(resultsDirectory, 'csharp-offline-screen.png'),
      );
      expect(screenshot.distinctColours).toBeGreaterThan(2);
      // Longer than the heartbeat and verify intervals (1 s here): neither runs offline.
      await sleep(1_500);
      expect(offline.lines.filter((line) => /heartbeat|verif|session start/i.test(line))).toEqual(
        [],
      );
      expect(readOfflineState(onlineHome).last_seen).toBeGreaterThanOrEqual(state.last_seen);
    }, 105_000);

    it.runIf(canUnshare)(
      'refuses the licence on another machine (another machine name)',
      async () => {
        const offline = startOffline(homeWithState(), true);
        await expectRefusal(
          offline,
          'Offline Licence Refused',
          'This offline licence belongs to another machine.',
        );
        const started = await offline.waitForLine(/^\[latchkey\] starting \(hardware id /);
        const [session] = await sessionRows(onlineUser.id);
        expect(started).not.toContain(session!.hwid!);
      },
      105_000,
    );

    it('refuses a licence whose payload was edited: its signature no longer holds', async () => {
      const home = homeWithState((state) => {
        const [prefix, payload, signature] = state.license.split('.');
        const content = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
        const edited = Buffer.from(JSON.stringify({ ...content, username: 'mallory' }));
        return { ...state, license: [prefix, edited.toString('base64url'), signature].join('.') };
      });
      const offline = startOffline(home);
      await expectRefusal(
        offline,
        'Offline Licence Refused',
        'This offline licence is not signed by this application.',
      );
      expect(await findWindows(mainWindow('mallory'))).toEqual([]);
    }, 105_000);

    it('refuses a licence stored for another application', async () => {
      const home = homeWithState((state) => ({
        ...state,
        application_id: state.application_id + 1,
      }));
      await expectRefusal(
        startOffline(home),
        'Offline Licence Refused',
        'This offline licence is not signed by this application.',
      );
    }, 105_000);

    it('refuses to start when the clock moved backwards since the last run', async () => {
      const home = homeWithState((state) => ({
        ...state,
        last_seen: Math.floor(Date.now() / 1000) + 86_400,
      }));
      await expectRefusal(
        startOffline(home),
        'Offline Licence Refused',
        'The system clock moved backwards since the last run.',
      );
    }, 105_000);

    it('refuses a licence past its valid_until: the account expiry it was issued with', async () => {
      const user = await live.createEndUser();
      let expiresAt = new Date();
      const online = await logInOnlineAndStop(user, () => {
        // A few seconds ahead, set once the window is up (Mono's start-up can take long).
        expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 12_000);
        return live.updateEndUser(user.id, { expiresAt: expiresAt.toISOString() });
      });
      const content = licenseContent(readOfflineState(online.home).license);
      expect(Date.parse(content.valid_until)).toBe(expiresAt.getTime());

      // A real expiry: wait until the licence's valid_until has passed.
      await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 1_100);
      await expectRefusal(
        startOffline(online.home),
        'Offline Licence Refused',
        `This offline licence expired on ${shownInKolkata(expiresAt)}.`,
      );
    }, 120_000);

    it('says the server is unreachable when no licence is stored; a failed checkout did not stop the online user', async () => {
      // A TTL beyond the application's offline days: the checkout is refused (400).
      await live.updateApplication({ maxOfflineDays: 1 });
      const user = await live.createEndUser();
      const client = startClient(clientProgram);
      try {
        await submitLogin(user.username, user.password);
        await dismissDialog('Login Successful');
        await waitForWindow(mainWindow(user.username));
        await client.waitForLine(
          /^\[latchkey\] offline licence checkout failed \(INVALID_REQUEST\)/,
        );
        await waitForHeartbeat(user.id);
        await client.stopAndWait();
        await waitFor(
          async () => (await findWindows(mainWindow(user.username))).length === 0,
          10_000,
          'the online client to close',
        );
        await endKilledSessions(user);
      } finally {
        await live.updateApplication({ maxOfflineDays: 30 });
      }
      expect(existsSync(savedSessionFile(client.home))).toBe(true);
      expect(existsSync(offlineStateFile(client.home))).toBe(false);
      await expectRefusal(
        startOffline(client.home),
        'Server Unreachable',
        'Cannot reach the server, and there is no offline licence on this machine.',
      );
    }, 120_000);
  });
  // Remote variables and the update channel, set up through the owner API.
  describe('remote variables and the update download', () => {
    const typeText = (text: string) => xdotool('type', '--delay', '15', text);
    /** The main window's note box, the text, then Save Note. */
    const saveNote = async (username: string, text: string) => {
      const main = await waitForWindow(mainWindow(username));
      await clickAt(main, 225, 450);
      await typeText(text);
      await clickAt(main, 500, 450);
    };

    it("shows the vendor's message and the user's note, saves a note that the owner sees, and refuses a read-only one", async () => {
      const user = await live.createEndUser();
      await live.createVariable({
        name: 'welcome_message',
        value: 'Maintenance on Sunday, 02:00 to 03:00',
      });
      await live.setUserVariable(user.id, 'note', { value: 'bring the charger' });
      const client = startClient(clientProgram);
      await submitLogin(user.username, user.password);
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(user.username));
      await client.waitForLine(
        /^\[latchkey\] shown: Message: Maintenance on Sunday, 02:00 to 03:00$/,
      );
      await client.waitForLine(/^\[latchkey\] shown: Note: bring the charger$/);

      await saveNote(user.username, 'call the bank at 3');
      await client.waitForLine(dialogLine('Note Saved', 'Note saved.'));
      await dismissDialog('Note Saved');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'call the bank at 3', readOnly: false },
      ]);

      await live.setUserVariable(user.id, 'note', { value: 'set by the vendor', readOnly: true });
      await saveNote(user.username, 'my own words');
      await waitForWindow('^Note Is Read-Only$');
      await client.waitForLine(/^\[latchkey\] dialog "Note Is Read-Only": \S/);
      await dismissDialog('Note Is Read-Only');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'set by the vendor', readOnly: true },
      ]);
      // Logout ends the session: later tests count the application's live sessions.
      await clickAt(await waitForWindow(mainWindow(user.username)), 520, 356);
      await dismissDialog('Logged Out');
      expect(await sessionRows(user.id)).toMatchObject([{ endReason: 'client' }]);
    }, 105_000);

    /** The application wants `version`, its current release: a file of these bytes. */
    const releaseVersion = async (version: string, bytes: Buffer) => {
      const file = await live.uploadFile({
        name: `client-${version}.bin`,
        version,
        bytes,
        requiresSession: false,
      });
      await live.setCurrentRelease(file.id);
      await live.updateApplication({ version });
    };
    const releaseBytes = (version: string) =>
      Buffer.from(`Latchkey C# sample, version ${version}: ${randomUUID()}\n`.repeat(4_000));
    /**
     * Logs in, closes the refusal (Update Required), and answers Yes (the default button) to the
     * offer (Update Available, of a newer version).
     */
    const acceptUpdate = async (
      client: SampleClient,
      user: { username: string; password: string },
      version: string,
      offer = {
        refusal: 'Update Required',
        title: 'Update Available',
        question: `Version ${version} is available. Download it?`,
      },
    ) => {
      await submitLogin(user.username, user.password);
      await dismissDialog(offer.refusal);
      await client.waitForLine(
        new RegExp(`^\\[latchkey\\] confirm "${offer.title}": ${escapeRegExp(offer.question)}$`),
      );
      await waitFor(
        async () => {
          if (client.lines.some((line) => line.endsWith(`"${offer.title}": yes`))) return true;
          const [questionId] = await findWindows(`^${offer.title}$`);
          if (questionId) {
            await xdotool('windowfocus', '--sync', questionId).catch(() => '');
            await xdotool('key', 'Return').catch(() => '');
            await sleep(500);
          }
          return false;
        },
        15_000,
        'Yes to the update',
      );
    };

    it('offers the current release on VERSION_MISMATCH, and saves it next to the program once its SHA-256 matches', async () => {
      const originalVersion = live.application.version;
      const bytes = releaseBytes('9.1.0');
      const saved = join(workDirectory, 'update-9.1.0.bin');
      try {
        await releaseVersion('9.1.0', bytes);
        const user = await live.createEndUser();
        const client = startClient(clientProgram);
        await acceptUpdate(client, user, '9.1.0');
        await client.waitForLine(dialogLine('Update Saved', `Update saved to ${saved}`));
        await dismissDialog('Update Saved');
        await client.waitForLine(/^\[latchkey\] exiting \(VERSION_MISMATCH\)$/);
        expect(readFileSync(saved).equals(bytes)).toBe(true);
        expect(existsSync(`${saved}.part`)).toBe(false);
        expect(await sessionRows(user.id)).toEqual([]);
      } finally {
        await live.updateApplication({ version: originalVersion });
        await live.setCurrentRelease(null);
        rmSync(saved, { force: true });
      }
    }, 105_000);

    it('refuses a download changed on the way (one byte, through the proxy) and saves nothing', async () => {
      const originalVersion = live.application.version;
      // Only the download is changed: the signed answers pass untouched.
      proxy.state.tamperPathPrefix = '/api/v1/downloads';
      proxy.state.tamper = true;
      try {
        await releaseVersion('9.2.0', releaseBytes('9.2.0'));
        const user = await live.createEndUser();
        const client = startClient(proxiedClientProgram);
        await acceptUpdate(client, user, '9.2.0');
        await client.waitForLine(
          dialogLine('Update Refused', 'The download does not match its signed SHA-256.'),
        );
        await dismissDialog('Update Refused');
        expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
        expect(client.lines.join('\n')).not.toContain(notVerifiedText);
        expect(
          readdirSync(join(workDirectory, 'proxied')).filter((name) => name.startsWith('update-')),
        ).toEqual([]);
      } finally {
        proxy.state.tamper = false;
        proxy.state.tamperPathPrefix = null;
        await live.updateApplication({ version: originalVersion });
        await live.setCurrentRelease(null);
      }
    }, 105_000);

    it('offers the release the licence includes on UPDATES_EXPIRED, when this version came out after the updates period', async () => {
      const bytes = releaseBytes('0.9.0');
      const saved = join(workDirectory, 'update-0.9.0.bin');
      try {
        const entitled = await live.uploadFile({
          name: 'client-0.9.0.bin',
          version: '0.9.0',
          bytes,
          requiresSession: false,
        });
        // The program's own version (the application's) is published past the user's window.
        const user = await live.createEndUser();
        await live.endUpdatesWindowAt(user.id, entitled);
        const client = startClient(clientProgram);
        await acceptUpdate(client, user, '0.9.0', {
          refusal: 'Updates Ended',
          title: 'Included Release',
          question: 'Your licence includes version 0.9.0. Download it?',
        });
        await client.waitForLine(dialogLine('Updates Ended', clientMessages.updatesExpired));
        await client.waitForLine(dialogLine('Update Saved', `Update saved to ${saved}`));
        await dismissDialog('Update Saved');
        await client.waitForLine(/^\[latchkey\] exiting \(UPDATES_EXPIRED\)$/);
        expect(readFileSync(saved).equals(bytes)).toBe(true);
        expect(await sessionRows(user.id)).toEqual([]);
      } finally {
        await live.setCurrentRelease(null);
        rmSync(saved, { force: true });
      }
    }, 105_000);
  });
  it('shows what is left of a usage meter, counts each use once, and names a used-up meter with when it resets', async () => {
    const user = await live.createEndUser();
    const meter = await live.grantTwoUseMeter(user.id);
    // The first of next month (UTC), as the sample shows it on a machine in Asia/Kolkata.
    const resets = `resets ${shownInKolkata(new Date(meter.resetsAt!))}`;
    const client = startClient(clientProgram, undefined, { TZ: 'Asia/Kolkata' });
    await submitLogin(user.username, user.password);
    await dismissDialog('Login Successful');
    const main = await waitForWindow(mainWindow(user.username));
    await client.waitForLine(
      new RegExp(`^\\[latchkey\\] usage: exports: 2 of 2 left, ${escapeRegExp(resets)}$`),
    );
    // Use feature, between Release this device... and Logout. The focus stays on it, so each
    // dialog is closed without a second Enter that could press it again.
    const useFeature = () => clickAt(main, 335, 356);

    await useFeature();
    await client.waitForLine(dialogLine('Usage Counted', `exports: 1 of 2 left, ${resets}`));
    await closeDialog('Usage Counted');
    await useFeature();
    await client.waitForLine(dialogLine('Usage Counted', `exports: 0 of 2 left, ${resets}`));
    await closeDialog('Usage Counted');
    await client.waitForLine(
      new RegExp(`^\\[latchkey\\] usage: exports: 0 of 2 left, ${escapeRegExp(resets)}$`),
    );
    // A refusing meter counts nothing past its allowance; the code titles it, not the message.
    await useFeature();
    await client.waitForLine(
      dialogLine('Usage Limit Reached', `${clientMessages.meterExhausted} (${resets})`),
    );
    await closeDialog('Usage Limit Reached');
    await live.expectTwoUsesCountedOnceEach(user.id);
    // Logout ends the session: later tests count the application's live sessions.
    await clickAt(main, 520, 356);
    await dismissDialog('Logged Out');
    expect(await sessionRows(user.id)).toMatchObject([{ endReason: 'client' }]);
  }, 105_000);

  it("starts this machine's trial once: a second start, under another name, logs in the same account; names a trial not offered and one ended", async () => {
    const client = startClient(clientProgram, undefined, { TZ: 'Asia/Kolkata' });
    /** Types the username (when there is one) and clicks Start Trial, left of Register.... */
    const startTrial = async (username: string) => {
      const login = await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS);
      if (username) {
        await clickAt(login, 250, 79);
        await xdotool('type', '--delay', '15', username);
      }
      await clickAt(login, 75, 206);
    };
    const logOut = async (username: string) => {
      await clickAt(await waitForWindow(mainWindow(username)), 520, 356);
      await dismissDialog('Logged Out');
    };

    // The application offers none yet: the code titles it, and the login window stays.
    await startTrial('');
    await closeDialog('Trial Unavailable');
    await client.waitForLine(dialogLine('Trial Unavailable', clientMessages.trialUnavailable));
    await waitForWindow(loginWindow);

    await live.offerTrial(7, ['PRO']);
    try {
      await startTrial('csharp_trial_user');
      await closeDialog('Trial Active');
      await waitForWindow(mainWindow('csharp_trial_user'));
      await client.waitForLine(/^\[latchkey\] session started/);
      const account = await live.expectTrialAccount('csharp_trial_user', 7);
      // As after a login, and the trial says when it ends (in local time: Kolkata, +05:30).
      const ends = `(trial ends ${shownInKolkata(new Date(account.expiresAt!))})`;
      const active = dialogLine('Trial Active', `${live.application.loginSuccessMessage} ${ends}`);
      await client.waitForLine(active);
      await client.waitForLine(/^\[latchkey\] entitlements: PRO$/);
      await logOut('csharp_trial_user');

      // The same machine again, under another name: the trial it had, not a second one.
      await startTrial('csharp_second_trial');
      await closeDialog('Trial Active');
      await waitForWindow(mainWindow('csharp_trial_user'));
      await waitFor(
        async () => (await sessionRows(account.id)).length === 2,
        15_000,
        'the second session to start',
      );
      expect(client.lines.filter((line) => active.test(line))).toHaveLength(2);
      await live.expectTrialAccount('csharp_trial_user', 7);
      expect(await live.findEndUser('csharp_second_trial')).toBeUndefined();
      await logOut('csharp_trial_user');

      // Its time is up: the machine's trial has ended, and says since when.
      const ended = new Date(Date.now() - 3_600_000);
      await live.updateEndUser(account.id, { expiresAt: ended.toISOString() });
      await startTrial('csharp_third_trial');
      await closeDialog('Trial Ended');
      await client.waitForLine(
        dialogLine('Trial Ended', `${clientMessages.trialEnded} (ended ${shownInKolkata(ended)})`),
      );
      await waitForWindow(loginWindow);
      expect(await live.findEndUser('csharp_third_trial')).toBeUndefined();
      expect((await sessionRows(account.id)).filter((row) => row.endedAt === null)).toEqual([]);
    } finally {
      await live.offerTrial(null);
    }
  }, 105_000);

  it('borrows the seat for three days, keeping its licence and saying until when, then returns it', async () => {
    const user = await live.createEndUser();
    await live.grantFloatingPlan(user.id, { seats: 1, maxBorrowDays: 7 });
    const home = mkdtempSync(join(workDirectory, 'home-'));
    const client = startClient(clientProgram, home, { TZ: 'Asia/Kolkata' });
    await submitLogin(user.username, user.password);
    await dismissDialog('Login Successful');
    const main = await waitForWindow(mainWindow(user.username));
    await client.waitForLine(/^\[latchkey\] session started/);

    // Borrow Seat..., under the licence key row, asks for the days.
    await clickAt(main, 90, 312);
    const prompt = await waitForWindow('^Latchkey Borrow Seat$', 30_000);
    await clickAt(prompt, 265, 71);
    await xdotool('type', '--delay', '15', '3');
    await xdotool('key', 'Return');
    await waitForWindow('^Seat Borrowed$');
    // The borrowed licence is kept where a checked-out one is, lasting the borrow.
    const { valid_until: validUntil } = licenseContent(readOfflineState(home).license);
    const until = `(borrowed until ${shownInKolkata(new Date(validUntil))})`;
    await client.waitForLine(
      dialogLine('Seat Borrowed', `${clientMessages.seatBorrowed} ${until}`),
    );
    // The focus stays on the button under the dialog: no second Enter may press it again.
    await closeDialog('Seat Borrowed');
    expect((Date.parse(validUntil) - Date.now()) / 86_400_000).toBeCloseTo(3, 2);
    const [borrowed] = await live.seatsOf(user.id);
    expect(Math.abs(Date.parse(borrowed!.borrowedUntil!) - Date.parse(validUntil))).toBeLessThan(
      1_000,
    );

    // Return Seat, beside it, gives the seat back and discards the borrowed licence.
    await clickAt(main, 220, 312);
    await client.waitForLine(dialogLine('Seat Returned', clientMessages.seatReturned));
    await closeDialog('Seat Returned');
    expect(await live.seatsOf(user.id)).toMatchObject([{ id: borrowed!.id, borrowedUntil: null }]);
    expect(existsSync(offlineStateFile(home))).toBe(false);
    // Logout ends the session: later tests count the application's live sessions.
    await clickAt(main, 520, 356);
    await dismissDialog('Logged Out');
  }, 105_000);

  // Licence keys, made through the owner API as a vendor would.
  describe('licence keys', () => {
    let proPlanId: string;
    let teamPlanId: string;
    let needsTeamProgram: string;
    const newKey = async (planId: string) => (await live.generateLicenseKeys(planId))[0]!;

    beforeAll(async () => {
      const [pro, team] = await Promise.all([
        live.createPlan({
          name: 'Csharp Pro',
          durationDays: 30,
          entitlements: ['PRO', 'EXPORT_PDF'],
          updatesForDays: 365,
        }),
        live.createPlan({ name: 'Csharp Team', durationDays: null, entitlements: ['TEAM'] }),
      ]);
      proPlanId = pro.id;
      teamPlanId = team.id;
      // The same program, for a vendor whose program needs the TEAM entitlement.
      mkdirSync(join(workDirectory, 'needs-team'));
      const source = join(workDirectory, 'needs-team', 'LatchkeyClient.cs');
      writeFileSync(
        source,
        replaceConstant(
          readFileSync(join(workDirectory, 'LatchkeyClient.cs'), 'utf8'),
          'REQUIRED_ENTITLEMENTS',
          '{ "TEAM" }',
        ),
      );
      needsTeamProgram = join(workDirectory, 'needs-team', 'client.exe');
      await compileCsharp({
        sources: [source],
        output: needsTeamProgram,
        target: 'winexe',
        sdkDll: sdk.installedDll,
      });
    });

    const typeText = (text: string) => xdotool('type', '--delay', '15', text);
    /** The login window's Licence key button, then the key and Enter (Log in). */
    const logInWithKey = async (key: string) => {
      await clickAt(await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS), 312, 206);
      const prompt = await waitForWindow('^Latchkey Licence Key$');
      await clickAt(prompt, 265, 71);
      await typeText(key);
      await xdotool('key', 'Return');
    };
    /** Types a key and the password into the main window's redeem row and clicks Redeem. */
    const redeem = async (username: string, key: string, password: string) => {
      const main = await waitForWindow(mainWindow(username));
      await clickAt(main, 215, 276);
      await typeText(key);
      await clickAt(main, 445, 276);
      await typeText(password);
      await clickAt(main, 537, 276);
    };

    it('registers with a key, shows its entitlements, redeems another onto the account, and names a used key', async () => {
      const [proKey, teamKey] = await Promise.all([newKey(proPlanId), newKey(teamPlanId)]);
      const username = 'csharp_registered_with_key';
      const password = 'a long enough password';
      const client = startClient(clientProgram);

      await clickAt(await waitForWindow(loginWindow, FIRST_WINDOW_TIMEOUT_MS), 187, 206);
      const prompt = await waitForWindow('^Latchkey Register$');
      await clickAt(prompt, 265, 71);
      await typeText(username);
      await xdotool('key', 'Tab');
      await typeText(password);
      await xdotool('key', 'Tab', 'Tab');
      await typeText(proKey.key);
      await xdotool('key', 'Return');
      await dismissDialog('Registration Successful');
      // Then the same username and password log in, and the main window shows the plan.
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(username));
      await client.waitForLine(/^\[latchkey\] session started/);
      await client.waitForLine(/^\[latchkey\] entitlements: EXPORT_PDF, PRO$/);
      await client.waitForLine(/^\[latchkey\] subscriptions: Csharp Pro until 20\S+$/);
      await client.waitForLine(/^\[latchkey\] updates: Until 20\S+$/);
      await client.waitForLine(dialogLine('Registration Successful', 'Registration successful'));
      const user = await live.findEndUser(username);
      expect(await live.subscriptionsOf(user!.id)).toMatchObject([
        { planName: 'Csharp Pro', isActive: true },
      ]);

      await redeem(username, teamKey.key, password);
      await dismissDialog('Licence Key Redeemed');
      await client.waitForLine(/^\[latchkey\] entitlements: EXPORT_PDF, PRO, TEAM$/);
      await client.waitForLine(
        /^\[latchkey\] subscriptions: Csharp Pro until \S+, Csharp Team \(lifetime\)$/,
      );
      // The lifetime plan has no updates window: every release, whatever Pro's window says.
      await client.waitForLine(/^\[latchkey\] updates: Every release$/);
      expect((await live.subscriptionsOf(user!.id)).map((held) => held.planName).sort()).toEqual([
        'Csharp Pro',
        'Csharp Team',
      ]);

      // The same key again: the code picks the title, the server's text follows it.
      await redeem(username, teamKey.key, password);
      await dismissDialog('Licence Key Used');
      await client.waitForLine(
        dialogLine('Licence Key Used', 'This licence key has already been used'),
      );
      expect(client.lines.join('\n')).not.toContain(password);

      await clickAt(await waitForWindow(mainWindow(username)), 520, 356);
      await dismissDialog('Logged Out');
      await waitFor(async () => (await live.activeSessionCount()) === 0, 10_000, 'no session');
    }, 105_000);

    it('logs in with a key alone, names a used key, and says which entitlement is missing', async () => {
      const [proKey, spentKey] = await Promise.all([newKey(proPlanId), newKey(proPlanId)]);
      // Spent by a registered account: it cannot log in alone.
      await live.redeemLicenseKey(await live.createEndUser(), spentKey.key);
      const keyUsername = `key-${proKey.id}`;
      const client = startClient(clientProgram);
      await logInWithKey(proKey.key);
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(keyUsername));
      await client.waitForLine(/^\[latchkey\] session started/);
      await client.waitForLine(/^\[latchkey\] entitlements: EXPORT_PDF, PRO$/);
      const keyUser = await live.findEndUser(keyUsername);
      expect(await sessionRows(keyUser!.id)).toHaveLength(1);

      await clickAt(await waitForWindow(mainWindow(keyUsername)), 520, 356);
      await dismissDialog('Logged Out');
      await logInWithKey(spentKey.key);
      await dismissDialog('Licence Key Used');
      await client.waitForLine(
        dialogLine('Licence Key Used', 'This licence key has already been used'),
      );
      client.stop();
      await waitFor(
        async () => (await findWindows(loginWindow)).length === 0,
        10_000,
        'the client to close',
      );

      // A program that needs TEAM: the key's user holds only PRO and EXPORT_PDF.
      // The SDK checks the entitlement before it opens a session: the login answers the refusal.
      const needsTeam = startClient(needsTeamProgram);
      await logInWithKey(proKey.key);
      await dismissDialog('Feature Not Included');
      await needsTeam.waitForLine(
        dialogLine(
          'Feature Not Included',
          'Your subscription does not include this feature (missing: TEAM)',
        ),
      );
      expect(await findWindows(mainWindow(keyUsername))).toEqual([]);
      expect(await sessionRows(keyUser!.id)).toMatchObject([{ endReason: 'client' }]);
    }, 105_000);
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

    /**
     * Release this device..., Yes (Enter: the default button), then the password and Enter in
     * the password prompt. Enter is pressed once on the question: Mono keeps an answered
     * message box's window on the screen for seconds while the prompt opens, so a second Enter
     * (dismissDialog's retry) would submit the prompt empty.
     */
    const releaseThisDevice = async (username: string, password: string) => {
      await clickAt(await waitForWindow(mainWindow(username)), 115, 356);
      const question = await waitForWindow('^Release This Device$');
      await xdotool('windowfocus', '--sync', question);
      await xdotool('key', 'Return');
      const prompt = await waitForWindow('^Latchkey Release Device$', 30_000);
      await clickAt(prompt, 265, 71);
      await xdotool('type', '--delay', '15', password);
      await xdotool('key', 'Return');
    };
    /** The server's time as the sample shows it in Asia/Kolkata (+05:30): the minute, rounded up. */
    const shownInKolkata = (at: Date) => {
      const minute = Math.ceil(at.getTime() / 60_000) * 60_000;
      return new Date(minute + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    };

    it('sends the machine name, releases this device so another machine logs in, and names the cooldown and a reset not allowed', async () => {
      await live.updateApplication({
        hwidLockEnabled: true,
        selfServiceReset: true,
        resetCooldownHours: 24,
      });
      const user = await live.createEndUser();
      const client = startClient(clientProgram, undefined, { TZ: 'Asia/Kolkata' });
      await submitLogin(user.username, user.password);
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(user.username));
      await client.waitForLine(/^\[latchkey\] session started/);
      const started = await client.waitForLine(/^\[latchkey\] starting \(hardware id /);
      const [, hwid, machineName] = /hardware id (\S+), device name (.+)\)$/.exec(started)!;
      expect(await live.devicesOf(user.id)).toMatchObject([{ hwid, name: machineName }]);
      // Mono's Environment.MachineName is the host name (up to its first dot, on some systems).
      expect(hostname().toLowerCase().startsWith(machineName!.toLowerCase())).toBe(true);

      try {
        await releaseThisDevice(user.username, user.password);
      } catch (e) {
        console.log(client.lines.join('\n'));
        throw e;
      }
      await closeDialog('Device Released');
      await waitForWindow(loginWindow);
      const [{ lastSelfResetAt }] = (await live.testApp.database.db
        .select({ lastSelfResetAt: appUsers.lastSelfResetAt })
        .from(appUsers)
        .where(eq(appUsers.id, user.id))) as [{ lastSelfResetAt: Date }];
      const nextRelease = shownInKolkata(new Date(lastSelfResetAt.getTime() + 24 * 3_600_000));
      await client.waitForLine(/^\[latchkey\] confirm "Release This Device": yes$/);
      await client.waitForLine(/^\[latchkey\] device released \(1\)$/);
      await client.waitForLine(
        dialogLine(
          'Device Released',
          `${clientMessages.devicesReleased}. You can release a device again from ${nextRelease}.`,
        ),
      );
      expect(await live.devicesOf(user.id)).toEqual([]);
      // The server ended this device's session; the sample forgot the saved one.
      expect(await sessionRows(user.id)).toMatchObject([{ endReason: 'device_released' }]);
      expect(existsSync(savedSessionFile(client.home))).toBe(false);
      expect(await live.loginFrom(user, 'another-machine')).toBe('OK');

      // A second seat, so that this machine logs in again beside the other one.
      await live.updateApplication({ maxDevices: 2 });
      const linesBefore = client.lines.length;
      await submitLogin(user.username, user.password);
      await dismissDialog('Login Successful');
      await waitForWindow(mainWindow(user.username));
      await waitFor(
        () => client.lines.slice(linesBefore).some((line) => line.includes('session started')),
        15_000,
        'the second session to start',
      );
      await releaseThisDevice(user.username, user.password);
      await closeDialog('Reset Not Yet Available');
      await client.waitForLine(
        dialogLine(
          'Reset Not Yet Available',
          `${clientMessages.resetCooldown} (next release possible at ${nextRelease})`,
        ),
      );
      await waitForWindow(mainWindow(user.username));
      expect(await live.devicesOf(user.id)).toHaveLength(2);

      await live.updateApplication({ selfServiceReset: false });
      await releaseThisDevice(user.username, user.password);
      await closeDialog('Reset Not Allowed');
      await client.waitForLine(dialogLine('Reset Not Allowed', clientMessages.resetNotAllowed));
      expect(await live.devicesOf(user.id)).toHaveLength(2);
      expect((await sessionRows(user.id)).filter((row) => row.endedAt === null)).toHaveLength(1);
      expect(client.lines.join('\n')).not.toContain(user.password);
    }, 120_000); // a fresh client (up to 75 s to its first window) and a longer drive
  });
});

/** One run of the compiled sample under Xvfb, its `[latchkey]` lines collected from stdout. */
class SampleClient {
  readonly lines: string[] = [];
  private readonly process: ChildProcess;
  private output = '';

  constructor(
    program: string,
    display: string,
    readonly home: string,
    extraEnv: Record<string, string> = {},
    isOnAnotherMachine = false,
  ) {
    // timeout(1) bounds the run even if the test process dies without its afterEach.
    const command = ['timeout', '-k', '2', '120', 'mono', program];
    // Off Windows the sample's HWID hashes the machine name: unshare(1) gives the program a
    // host name namespace of its own, named like another machine.
    const [file, ...args] = isOnAnotherMachine
      ? [
          'unshare',
          '--map-root-user',
          '--uts',
          'sh',
          '-c',
          'hostname another-machine && exec "$@"',
          'sh',
          ...command,
        ]
      : command;
    this.process = spawn(file!, args, {
      env: { ...process.env, DISPLAY: display, HOME: home, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process.stdout!.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      const complete = this.output.split('\n');
      this.output = complete.pop()!;
      this.lines.push(...complete.filter((line) => line.startsWith('[latchkey] ')));
    });
    this.process.stderr!.on('data', (chunk: Buffer) => {
      this.lines.push(`[stderr] ${chunk.toString('utf8').trim()}`);
    });
  }

  async waitForLine(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    let found: string | undefined;
    await waitFor(
      () => (found = this.lines.find((line) => pattern.test(line))) !== undefined,
      timeoutMs,
      `the client to print ${String(pattern)} (it printed:\n${this.lines.join('\n')})`,
    );
    return found!;
  }

  stop(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGTERM');
    }
  }

  /** Stops the program and waits until its process has exited. */
  async stopAndWait(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.stop();
    await exited;
  }
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * What the sample stores beside its saved session: its offline licence, the last time seen, and
 * the application the licence named when it was checked out.
 */
const offlineStateSchema = z.object({
  license: z.string(),
  last_seen: z.number().int(),
  application_id: z.number().int(),
});
type OfflineState = z.infer<typeof offlineStateSchema>;

/** The content of an LK1 licence (read only; the SDK in the sample is what checks its signature). */
function licenseContent(license: string) {
  return offlineLicenseContentSchema.parse(
    JSON.parse(Buffer.from(license.split('.')[1]!, 'base64url').toString('utf8')),
  );
}

/** A server time as the sample shows it in Asia/Kolkata (+05:30): the minute, rounded up. */
function shownInKolkata(at: Date): string {
  const minute = Math.ceil(at.getTime() / 60_000) * 60_000;
  return new Date(minute + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** A loopback port nothing listens on (taken, then released): connections are refused. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The line the sample logs as it shows a message box: its title and its exact text. */
function dialogLine(title: string, text: string): RegExp {
  return new RegExp(`^\\[latchkey\\] dialog "${escapeRegExp(title)}": ${escapeRegExp(text)}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Display 97 unless another run holds it (several test files may drive GUIs at once). */
function freeDisplayNumber(): number {
  for (let number = 97; number < 1000; number += 100) {
    if (!existsSync(`/tmp/.X${number}-lock`) && !existsSync(`/tmp/.X11-unix/X${number}`)) {
      return number;
    }
  }
  throw new Error('no free X display number');
}
