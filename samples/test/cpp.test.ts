import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import {
  FORGOT_PASSWORD_ANSWER,
  VERIFICATION_RESEND_ANSWER,
  offlineLicenseContentSchema,
} from '@latchkey/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appUserSessions, mailMessages } from '../../apps/server/src/db/schema/index.ts';
import { clientMessages } from '../../apps/server/src/modules/client-api/client-outcomes.ts';
import { buildAndInstallCppSdk, canBuildCppSdk } from '../../sdks/test/installed-cpp-sdk.ts';
import { replaceConstant, startLiveLatchkey, type LiveLatchkey } from './live-latchkey.ts';
import { hasTool } from './require-tool.ts';
import { startTamperingProxy } from './tampering-proxy.ts';

/**
 * The C++ sample as Latchkey renders it for a live application, built on the C++ SDK as a
 * vendor installs it (the `latchkey` CMake project built and `cmake --install`ed into a prefix
 * outside the repository, once for this file), compiled with g++ as its header says, from a
 * folder outside the repository, and driven through standard input. The program talks to the
 * server through the loopback tampering proxy (a transparent pass-through until a test turns
 * tampering on), so one compilation serves every case.
 */
const isToolchainInstalled = canBuildCppSdk();

/** Namespaces of its own (user, mount, host name) let a test run the sample as another machine. */
const canUnshare = hasTool(
  'unshare',
  ['--map-root-user', '--mount', '--uts', 'true'],
  'util-linux',
);

const COMPILE_TIMEOUT_MS = 120_000;
/** Building the SDK (two jobs) and the sample twice, on a shared two-core machine. */
const SETUP_TIMEOUT_MS = 600_000;
const OUTPUT_TIMEOUT_MS = 15_000;
const NOT_VERIFIED_TEXT = 'The server response could not be verified.';
const FORCED_LOGOUT_TEXT = 'Your session has expired. Please login again.';

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

/** The content of an LK1 licence (read only; the sample is what checks its signature). */
const licenseContent = (license: string) =>
  offlineLicenseContentSchema.parse(
    JSON.parse(Buffer.from(license.split('.')[1]!, 'base64url').toString('utf8')),
  );

/**
 * A server time as the sample shows it in Asia/Kolkata (+05:30): the minute, rounded up from
 * the time's whole seconds (the sample reads no fraction: 03:07:00.5 shows as 03:07).
 */
const shownInKolkata = (at: Date) => {
  const minute = Math.ceil(Math.floor(at.getTime() / 1000) / 60) * 60_000;
  return new Date(minute + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
};

/** A loopback port nothing listens on (taken, then released): connections are refused. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A running sample: its stdout (and stderr) as one growing text, read with a cursor. */
class ConsoleProgram {
  output = '';
  private cursor = 0;
  private readonly child: ChildProcess;
  private readonly exitCode: Promise<number | null>;
  private readonly listeners = new Set<() => void>();

  constructor(
    binary: string,
    home: string,
    args: string[] = [],
    extraEnv: Record<string, string> = {},
  ) {
    this.child = spawn(binary, args, {
      env: { ...process.env, HOME: home, ...extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const append = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      for (const listener of this.listeners) listener();
    };
    this.child.stdout!.on('data', append);
    this.child.stderr!.on('data', append);
    this.exitCode = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(line: string) {
    this.child.stdin!.write(`${line}\n`);
  }

  closeInput() {
    this.child.stdin!.end();
  }

  /** Waits for `text` after what earlier waits consumed, and moves the cursor past it. */
  async waitFor(text: string, timeoutMs = OUTPUT_TIMEOUT_MS): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const index = this.output.indexOf(text, this.cursor);
        if (index < 0) return;
        this.cursor = index + text.length;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out waiting for ${JSON.stringify(text)}; output:\n${this.output}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  async exited(timeoutMs = OUTPUT_TIMEOUT_MS): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the program did not exit; output:\n${this.output}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exitCode, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

describe.skipIf(!isToolchainInstalled)('C++ sample against a live Latchkey', () => {
  let live: LiveLatchkey;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  /** Where the SDK is built and installed, outside the repository. */
  let workDirectory: string;
  /** Where the sample is compiled and runs: an update is saved beside it. */
  let programDirectory: string;
  let binary: string;
  /** The same program with its BASE_URL on a closed port: the server cannot be reached. */
  let offlineBinary: string;
  const programs: ConsoleProgram[] = [];
  const homes: string[] = [];

  beforeAll(async () => {
    workDirectory = await mkdtemp(join(tmpdir(), 'latchkey-cpp-'));
    // Assigned as soon as it runs, so afterAll closes the server even if the build fails.
    const [{ prefix }] = await Promise.all([
      buildAndInstallCppSdk(workDirectory, { withUnitTests: false }),
      startLiveLatchkey().then((started) => (live = started)),
    ]);
    proxy = await startTamperingProxy(live.baseUrl);
    const rendered = await live.renderSample('cpp');
    expect(rendered).toContain(`static const char* const API_KEY = "${live.application.apiKey}";`);
    expect(rendered).toContain(`SIGNING_PUBLIC_KEY = "${live.application.signingPublicKey}";`);
    expect(rendered).toContain(JSON.stringify(live.baseUrl));
    let code = replaceConstant(rendered, 'HEARTBEAT_INTERVAL_SECONDS', 1);
    code = replaceConstant(code, 'VERIFY_INTERVAL_SECONDS', 1);
    const offlineCode = code.replaceAll(
      JSON.stringify(live.baseUrl),
      JSON.stringify(`http://127.0.0.1:${await closedPort()}`),
    );
    code = code.replaceAll(JSON.stringify(live.baseUrl), JSON.stringify(proxy.baseUrl));

    programDirectory = join(workDirectory, 'program');
    await mkdir(programDirectory);
    // The build command of the sample's header, flag for flag, with the SDK's own prefix: its
    // pkg-config file there, and a run path to its library (the header's note for a prefix).
    const pkgConfigFile = (await readdir(prefix, { recursive: true })).find((path) =>
      path.endsWith('latchkey.pc'),
    )!;
    const pkgConfigDirectory = join(prefix, dirname(pkgConfigFile));
    const libraries = (
      await promisify(execFile)('pkg-config', ['--cflags', '--libs', 'latchkey', 'nlohmann_json'], {
        encoding: 'utf8',
        timeout: 10_000,
        env: { ...process.env, PKG_CONFIG_PATH: pkgConfigDirectory },
      })
    ).stdout
      .trim()
      .split(/\s+/);
    libraries.push(`-Wl,-rpath,${dirname(pkgConfigDirectory)}`);
    const compile = async (name: string, sourceCode: string) => {
      const source = join(programDirectory, `${name}.cpp`);
      const output = join(programDirectory, name);
      await writeFile(source, sourceCode);
      await promisify(execFile)(
        'g++',
        ['-std=c++17', '-O2', '-Wall', '-Wextra', '-Werror', source, '-o', output, ...libraries],
        { timeout: COMPILE_TIMEOUT_MS },
      );
      return output;
    };
    [binary, offlineBinary] = await Promise.all([
      compile('latchkey_client', code),
      compile('latchkey_client_offline', offlineCode),
    ]);
  }, SETUP_TIMEOUT_MS);

  afterEach(() => {
    for (const program of programs.splice(0)) program.kill();
    if (proxy) proxy.state.tamper = false;
  });

  afterAll(async () => {
    for (const program of programs.splice(0)) program.kill();
    await proxy?.close();
    await live?.close();
    for (const directory of [...homes, workDirectory]) {
      if (directory) await rm(directory, { recursive: true, force: true });
    }
  });

  const newHome = async () => {
    const home = await mkdtemp(join(tmpdir(), 'latchkey-cpp-home-'));
    homes.push(home);
    return home;
  };
  const run = (
    home: string,
    options: { program?: string; isOnAnotherMachine?: boolean; env?: Record<string, string> } = {},
  ) => {
    const program = options.isOnAnotherMachine
      ? new ConsoleProgram(
          'unshare',
          home,
          anotherMachineArgs(options.program ?? binary),
          options.env,
        )
      : new ConsoleProgram(options.program ?? binary, home, [], options.env);
    programs.push(program);
    return program;
  };
  /**
   * unshare(1) runs the program in namespaces of its own where every input of its HWID is
   * another machine's: /etc/machine-id and /var/lib/dbus/machine-id bind-mounted over with
   * another id, and another host name (the fallback).
   */
  const anotherMachineArgs = (program: string) => [
    '--map-root-user',
    '--mount',
    '--uts',
    'sh',
    '-c',
    'for id in /etc/machine-id /var/lib/dbus/machine-id; do [ -e "$id" ] && mount --bind "$0" "$id"; done; hostname another-machine && exec "$1"',
    anotherMachineId,
    program,
  ];
  let anotherMachineId: string;
  const savedSessionFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.json`);
  const offlineStateFile = (home: string) =>
    join(home, '.latchkey', `${live.application.apiKey.slice(0, 12)}.offline.json`);
  const readOfflineState = async (home: string) =>
    offlineStateSchema.parse(JSON.parse(await readFile(offlineStateFile(home), 'utf8')));
  const sessionsOf = (userId: string) =>
    live.testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, userId));
  /**
   * The user's sessions not ended: quitting leaves a session open for the next start, so the
   * application's live count would also hold sessions earlier tests left.
   */
  const openSessionCount = async (userId: string) =>
    (await sessionsOf(userId)).filter((session) => session.endedAt === null).length;
  const logIn = async (program: ConsoleProgram, username: string, password: string) => {
    await program.waitFor('Username: ');
    program.send(username);
    await program.waitFor('Password: ');
    program.send(password);
  };
  const waitUntil = async (condition: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + OUTPUT_TIMEOUT_MS;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('asks again for empty fields, then logs in, verifies, starts one session the server sees, heartbeats, answers status and help, and logs out', async () => {
    const user = await live.createEndUser();
    const home = await newHome();
    const program = run(home);

    await logIn(program, '', '');
    await program.waitFor('Please provide both username and password');
    await logIn(program, user.username, user.password);
    await program.waitFor(`Login Successful: ${live.application.loginSuccessMessage}`);
    await program.waitFor('[latchkey] verify ok');
    await program.waitFor('[latchkey] session started');
    await program.waitFor('> ');
    expect(await openSessionCount(user.id)).toBe(1);
    const [started] = await sessionsOf(user.id);
    expect(started).toMatchObject({ endedAt: null });

    // A heartbeat a second: the server moves the session's last_heartbeat_at.
    await program.waitFor('[latchkey] heartbeat ok');
    await waitUntil(async () => {
      const [session] = await sessionsOf(user.id);
      return session!.lastHeartbeatAt.getTime() > started!.lastHeartbeatAt.getTime();
    }, 'the heartbeat reaches the session row');
    expect(JSON.parse(await readFile(savedSessionFile(home), 'utf8'))).toMatchObject({
      user_id: user.id,
    });

    program.send('status');
    await program.waitFor(`Status: logged in as ${user.username}`);
    await program.waitFor(`User ID: ${user.id}`);
    await program.waitFor('Verify failures: 0/3');
    program.send('help');
    for (const command of ['status', 'logout', 'help', 'quit']) await program.waitFor(command);

    program.send('logout');
    await program.waitFor('You have been logged out.');
    await program.waitFor('Username: ');
    expect(await openSessionCount(user.id)).toBe(0);
    expect(await sessionsOf(user.id)).toMatchObject([{ endReason: 'client' }]);
    expect(existsSync(savedSessionFile(home))).toBe(false);

    program.closeInput();
    expect(await program.exited()).toBe(0);
    expect(program.output).not.toContain(user.password);
    expect(program.output).not.toContain(NOT_VERIFIED_TEXT);
  });

  it('keeps the user_id: the next start says Saved session verified. and resumes the session; a refused saved id is cleared', async () => {
    const user = await live.createEndUser();
    const home = await newHome();
    const first = run(home);
    await logIn(first, user.username, user.password);
    await first.waitFor('[latchkey] session started');
    await first.waitFor('> ');
    first.send('quit');
    expect(await first.exited()).toBe(0);
    // Quitting sends no end call: the session stays open, saved with its token.
    const [kept] = await sessionsOf(user.id);
    expect(kept).toMatchObject({ endedAt: null });
    expect(existsSync(savedSessionFile(home))).toBe(true);

    // The next start verifies the saved user, then resumes that same session without the
    // password: no login, no new session row.
    const second = run(home);
    await second.waitFor('Saved session verified.');
    await second.waitFor('[latchkey] session resumed');
    await second.waitFor('> ');
    expect(second.output).not.toContain('[latchkey] login ok');
    second.send('exit');
    expect(await second.exited()).toBe(0);
    expect(await sessionsOf(user.id)).toMatchObject([{ id: kept!.id, endedAt: null }]);

    await live.pauseEndUser(user.id);
    const third = run(home);
    await third.waitFor('[latchkey] saved session refused (ACCOUNT_DISABLED)');
    await third.waitFor('Username: ');
    expect(third.output).not.toContain('Saved session verified.');
    expect(existsSync(savedSessionFile(home))).toBe(false);
  });

  it("shows the application's own message for a wrong password and starts no session", async () => {
    const application = await live.updateApplication({
      loginFailedMessage: 'No entry: the C++ sample test used a wrong password',
    });
    const user = await live.createEndUser();
    const program = run(await newHome());
    await logIn(program, user.username, 'not the password');
    await program.waitFor(`Login Failed: ${application.loginFailedMessage}`);
    await program.waitFor('Username: ');
    expect(program.output).not.toContain('[latchkey] session started');
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await openSessionCount(user.id)).toBe(0);
  });

  it('shows Hardware Mismatch with the application message when the account is bound to another device', async () => {
    const application = await live.updateApplication({ hwidLockEnabled: true });
    try {
      const user = await live.createEndUser({ hwid: 'another-device-hwid' });
      const program = run(await newHome());
      await logIn(program, user.username, user.password);
      await program.waitFor(`Hardware Mismatch: ${application.hwidMismatchMessage}`);
      await program.waitFor('Username: ');
      expect(await sessionsOf(user.id)).toEqual([]);
    } finally {
      await live.updateApplication({ hwidLockEnabled: false });
    }
  });

  it('says Update Required and exits when the application wants another version', async () => {
    const originalVersion = live.application.version;
    const application = await live.updateApplication({ version: '9.9.9' });
    try {
      const user = await live.createEndUser();
      const program = run(await newHome());
      await logIn(program, user.username, user.password);
      await program.waitFor(`Update Required: ${application.versionMismatchMessage}`);
      expect(await program.exited()).toBe(1);
      expect(await sessionsOf(user.id)).toEqual([]);
    } finally {
      await live.updateApplication({ version: originalVersion });
    }
  });

  it('forces a logout after three failed verifies once the owner pauses the user', async () => {
    const user = await live.createEndUser();
    const home = await newHome();
    const program = run(home);
    await logIn(program, user.username, user.password);
    await program.waitFor('[latchkey] session started');
    expect(await openSessionCount(user.id)).toBe(1);

    await live.pauseEndUser(user.id);
    await program.waitFor('[latchkey] verify failed (1/3)');
    await program.waitFor('[latchkey] verify failed (3/3)');
    await program.waitFor('[latchkey] forced logout');
    await program.waitFor(`Session Expired: ${FORCED_LOGOUT_TEXT}`);
    await program.waitFor('Username: ');
    expect(await openSessionCount(user.id)).toBe(0);
    expect(existsSync(savedSessionFile(home))).toBe(false);
    // The timers stopped: no more verifies after the forced logout.
    const outputAtLogout = program.output;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(program.output.slice(outputAtLogout.length)).not.toContain('[latchkey] verify');
  });

  it('refuses a login whose answer was tampered with on the way, and starts no session', async () => {
    const user = await live.createEndUser();
    // A fresh home has no saved session: the login is the program's first request.
    proxy.state.tamper = true;
    const program = run(await newHome());
    await logIn(program, user.username, user.password);
    await program.waitFor(NOT_VERIFIED_TEXT);
    await program.waitFor('Username: ');
    expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
    expect(program.output).not.toContain('[latchkey] login ok');
    expect(program.output).not.toContain(live.application.loginSuccessMessage);
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await openSessionCount(user.id)).toBe(0);
  });

  // Without SMTP_URL the test server's mail goes to its local mailbox: a queued row per message.
  it('asks for a reset link by username and by e-mail at /forgot, and shows the answer', async () => {
    const user = await live.createEndUser();
    const email = `${user.username}@example.com`;
    await live.updateEndUser(user.id, { email });
    const program = run(await newHome());

    await program.waitFor('/forgot if you forgot your password,');
    for (const usernameOrEmail of [user.username, email.toUpperCase()]) {
      await program.waitFor('Username: ');
      program.send('/forgot');
      await program.waitFor('Username or e-mail: ');
      program.send(usernameOrEmail);
      await program.waitFor(`Check Your E-mail: ${FORGOT_PASSWORD_ANSWER}`);
    }
    await program.waitFor('Username: ');
    const mails = await live.testApp.database.db
      .select({ recipient: mailMessages.recipient })
      .from(mailMessages)
      .where(and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'password_reset')));
    expect(mails).toEqual([{ recipient: email }, { recipient: email }]);
    program.closeInput();
    expect(await program.exited()).toBe(0);
  });

  it('names an unconfirmed address at login, and mails a new link to confirm it at /resend', async () => {
    await live.updateApplication({ requireVerifiedEmail: true });
    try {
      const user = await live.createEndUser();
      const email = `${user.username}@example.com`;
      await live.updateEndUser(user.id, { email });
      const program = run(await newHome());

      await logIn(program, user.username, user.password);
      await program.waitFor(`E-mail Not Verified: ${clientMessages.emailNotVerified}`);
      await program.waitFor('Type /resend at the Username prompt');
      await program.waitFor('Username: ');
      program.send('/resend');
      await logIn(program, user.username, user.password);
      await program.waitFor(`Check Your E-mail: ${VERIFICATION_RESEND_ANSWER}`);
      await program.waitFor('Username: ');
      expect(program.output).not.toContain('Login Successful');
      expect(await sessionsOf(user.id)).toEqual([]);
      const mails = await live.testApp.database.db
        .select({ recipient: mailMessages.recipient })
        .from(mailMessages)
        .where(
          and(eq(mailMessages.appUserId, user.id), eq(mailMessages.kind, 'email_verification')),
        );
      expect(mails).toEqual([{ recipient: email }]);
      program.closeInput();
      expect(await program.exited()).toBe(0);
    } finally {
      await live.updateApplication({ requireVerifiedEmail: false });
    }
  });
  // The offline licence, checked out after each login and used when the server cannot be
  // reached (the program built with its BASE_URL on a closed port).
  describe('offline licence', () => {
    /** A home where a user logged in online and quit: its saved session and licence. */
    let onlineHome: string;
    let onlineUser: Awaited<ReturnType<LiveLatchkey['createEndUser']>>;

    /** Logs a user in online until the licence is saved and a heartbeat has run, then quits. */
    const logInOnlineAndQuit = async (user: { username: string; password: string }) => {
      const home = await newHome();
      const program = run(home);
      await logIn(program, user.username, user.password);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('[latchkey] offline licence saved (valid until ');
      await program.waitFor('[latchkey] heartbeat ok');
      program.send('quit');
      expect(await program.exited()).toBe(0);
      return { home, program };
    };
    /** A copy of the online home, its offline state changed by `edit`. */
    const homeWithState = async (
      edit: (state: OfflineState) => OfflineState = (state) => state,
    ) => {
      const home = await newHome();
      await cp(join(onlineHome, '.latchkey'), join(home, '.latchkey'), { recursive: true });
      await writeFile(
        offlineStateFile(home),
        JSON.stringify(edit(await readOfflineState(onlineHome))),
      );
      return home;
    };
    const startOffline = (home: string, isOnAnotherMachine = false) =>
      run(home, { program: offlineBinary, isOnAnotherMachine, env: { TZ: 'Asia/Kolkata' } });

    beforeAll(async () => {
      anotherMachineId = join(programDirectory, 'another-machine-id');
      await writeFile(anotherMachineId, '0123456789abcdef0123456789abcdef\n');
      onlineUser = await live.createEndUser();
      ({ home: onlineHome } = await logInOnlineAndQuit(onlineUser));
    });

    it('checks out a licence for this machine after login, and starts offline with it: the user, until when, no heartbeat', async () => {
      const state = await readOfflineState(onlineHome);
      expect(state.application_id).toBe(live.application.id);
      expect(state.license).toMatch(/^LK1\.[\w-]+\.[\w-]+$/);
      expect(Math.abs(state.last_seen - Date.now() / 1000)).toBeLessThan(30);
      const content = licenseContent(state.license);
      const [session] = await sessionsOf(onlineUser.id);
      expect(content).toMatchObject({
        application_id: live.application.id,
        user_id: onlineUser.id,
        username: onlineUser.username,
        hwid: session!.hwid,
      });
      expect(content.hwid).toMatch(/^[0-9a-f]{64}$/);
      // OFFLINE_LICENSE_TTL_SECONDS: seven days.
      const validUntil = Date.parse(content.valid_until);
      expect(validUntil - Date.parse(content.issued_at)).toBe(604_800_000);

      const offline = startOffline(onlineHome);
      await offline.waitFor('[latchkey] server unreachable (');
      await offline.waitFor('[latchkey] offline licence accepted');
      await offline.waitFor(`Working offline until ${shownInKolkata(new Date(validUntil))}`);
      await offline.waitFor(`Welcome, ${onlineUser.username}! Type 'help' for commands.`);
      await offline.waitFor('> ');
      offline.send('status');
      await offline.waitFor(`Status: logged in as ${onlineUser.username}`);
      await offline.waitFor('Session: none (working offline)');
      // Longer than the heartbeat and verify intervals (1 s here): neither runs offline.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      offline.send('quit');
      expect(await offline.exited()).toBe(0);
      expect(offline.output).not.toMatch(/heartbeat|verify|Session end error/);
      expect(offline.output).not.toContain('Offline Licence Refused');
      expect((await readOfflineState(onlineHome)).last_seen).toBeGreaterThanOrEqual(
        state.last_seen,
      );
    });

    it.runIf(canUnshare)(
      'refuses the licence on another machine (another machine id and host name)',
      async () => {
        const offline = startOffline(await homeWithState(), true);
        await offline.waitFor(
          'Offline Licence Refused: This offline licence belongs to another machine.',
        );
        await offline.waitFor('Username: ');
        expect(offline.output).not.toContain('Working offline');
        // The same copy on this machine is accepted: only the HWID differed.
        const here = startOffline(await homeWithState());
        await here.waitFor('[latchkey] offline licence accepted');
      },
    );

    it('refuses a licence whose payload was edited: its signature no longer holds', async () => {
      const home = await homeWithState((state) => {
        const [prefix, payload, signature] = state.license.split('.');
        const content = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
        const edited = Buffer.from(JSON.stringify({ ...content, username: 'mallory' }));
        return { ...state, license: [prefix, edited.toString('base64url'), signature].join('.') };
      });
      const offline = startOffline(home);
      await offline.waitFor(
        'Offline Licence Refused: This offline licence is not signed by this application.',
      );
      await offline.waitFor('Username: ');
      expect(offline.output).not.toContain('mallory');
    });

    it('refuses a licence stored for another application', async () => {
      const home = await homeWithState((state) => ({
        ...state,
        application_id: state.application_id + 1,
      }));
      const offline = startOffline(home);
      await offline.waitFor(
        'Offline Licence Refused: This offline licence is not signed by this application.',
      );
      await offline.waitFor('Username: ');
    });

    it('refuses to start when the clock moved backwards since the last run', async () => {
      const home = await homeWithState((state) => ({
        ...state,
        last_seen: Math.floor(Date.now() / 1000) + 86_400,
      }));
      const offline = startOffline(home);
      await offline.waitFor(
        'Offline Licence Refused: The system clock moved backwards since the last run.',
      );
      await offline.waitFor('Username: ');
      expect(offline.output).not.toContain('Working offline');
    });

    it('refuses a licence past its valid_until: the account expiry it was issued with', async () => {
      const user = await live.createEndUser();
      const expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 6_000);
      await live.updateEndUser(user.id, { expiresAt: expiresAt.toISOString() });
      const { home } = await logInOnlineAndQuit(user);
      const content = licenseContent((await readOfflineState(home)).license);
      expect(Date.parse(content.valid_until)).toBe(expiresAt.getTime());

      // A real expiry: wait until the licence's valid_until has passed.
      await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 1_100));
      const offline = startOffline(home);
      await offline.waitFor(
        `Offline Licence Refused: This offline licence expired on ${shownInKolkata(expiresAt)}.`,
      );
      await offline.waitFor('Username: ');
    });

    it('says the server is unreachable when no licence is stored; a failed checkout did not stop the online user', async () => {
      // A TTL beyond the application's offline days: the checkout is refused (400).
      await live.updateApplication({ maxOfflineDays: 1 });
      const home = await newHome();
      try {
        const user = await live.createEndUser();
        const program = run(home);
        await logIn(program, user.username, user.password);
        await program.waitFor('[latchkey] offline licence checkout failed (INVALID_REQUEST');
        await program.waitFor('[latchkey] heartbeat ok');
        expect(await openSessionCount(user.id)).toBeGreaterThanOrEqual(1);
        program.send('quit');
        expect(await program.exited()).toBe(0);
      } finally {
        await live.updateApplication({ maxOfflineDays: 30 });
      }
      expect(existsSync(offlineStateFile(home))).toBe(false);
      const offline = startOffline(home);
      await offline.waitFor(
        'Server Unreachable: Cannot reach the server, and there is no offline licence on this machine.',
      );
      await offline.waitFor('Username: ');
    });
  });
  // Remote variables and the update channel, set up through the owner API.
  describe('remote variables and the update download', () => {
    it('shows no message until the vendor sets welcome_message, then shows it after login', async () => {
      const user = await live.createEndUser();
      const before = run(await newHome());
      await logIn(before, user.username, user.password);
      await before.waitFor('[latchkey] session started');
      await before.waitFor('> ');
      before.send('quit');
      expect(await before.exited()).toBe(0);
      expect(before.output).not.toMatch(/Message:|welcome message not read/);

      await live.createVariable({
        name: 'welcome_message',
        value: 'Maintenance on Sunday, 02:00 to 03:00',
      });
      const after = run(await newHome());
      await logIn(after, user.username, user.password);
      await after.waitFor('[latchkey] session started');
      await after.waitFor('Message: Maintenance on Sunday, 02:00 to 03:00');
      await after.waitFor('> ');
      after.send('quit');
      expect(await after.exited()).toBe(0);
    });

    it("shows the user's note, saves a new one that the owner sees, and refuses a read-only one", async () => {
      const user = await live.createEndUser();
      await live.setUserVariable(user.id, 'note', { value: 'bring the charger' });
      const program = run(await newHome());
      await logIn(program, user.username, user.password);
      await program.waitFor('Note: bring the charger');
      await program.waitFor('> ');
      program.send('note');
      await program.waitFor('New note: ');
      program.send('call the bank at 3');
      await program.waitFor('Note saved.');
      await program.waitFor('> ');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'call the bank at 3', readOnly: false },
      ]);

      await live.setUserVariable(user.id, 'note', { value: 'set by the vendor', readOnly: true });
      program.send('note');
      await program.waitFor('New note: ');
      program.send('my own words');
      await program.waitFor('Note Is Read-Only: ');
      await program.waitFor('> ');
      expect(await live.userVariablesOf(user.id)).toMatchObject([
        { name: 'note', value: 'set by the vendor', readOnly: true },
      ]);
      program.send('quit');
      expect(await program.exited()).toBe(0);
    });

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
      return file;
    };
    const releaseBytes = (version: string) =>
      Buffer.from(`Latchkey C++ sample, version ${version}: ${randomUUID()}\n`.repeat(4_000));

    it('offers the current release on VERSION_MISMATCH, and saves it next to the program once its SHA-256 matches', async () => {
      const originalVersion = live.application.version;
      const bytes = releaseBytes('9.1.0');
      const saved = join(programDirectory, 'update-9.1.0.bin');
      try {
        const file = await releaseVersion('9.1.0', bytes);
        expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        const user = await live.createEndUser();
        const program = run(await newHome());
        await logIn(program, user.username, user.password);
        await program.waitFor(`Update Required: ${live.application.versionMismatchMessage}`);
        await program.waitFor('Version 9.1.0 is available. Download it? (y/n) ');
        program.send('y');
        await program.waitFor(`Update saved to ${saved}`);
        expect(await program.exited()).toBe(1);
        expect((await readFile(saved)).equals(bytes)).toBe(true);
        // Nothing else of the download is left beside it (no partial file).
        const updates = (await readdir(programDirectory)).filter((name) =>
          name.includes('update-'),
        );
        expect(updates).toEqual(['update-9.1.0.bin']);
        expect(await sessionsOf(user.id)).toEqual([]);
      } finally {
        await live.updateApplication({ version: originalVersion });
        await live.setCurrentRelease(null);
        await rm(saved, { force: true });
      }
    });

    it('refuses a download changed on the way (one byte, through the proxy) and saves nothing', async () => {
      const originalVersion = live.application.version;
      try {
        await releaseVersion('9.2.0', releaseBytes('9.2.0'));
        const user = await live.createEndUser();
        const program = run(await newHome());
        await logIn(program, user.username, user.password);
        await program.waitFor('Version 9.2.0 is available. Download it? (y/n) ');
        // Only the download is changed: the signed answers pass untouched.
        proxy.state.tamperPathPrefix = '/api/v1/downloads';
        proxy.state.tamper = true;
        program.send('yes');
        await program.waitFor('Update Refused: The download does not match its signed SHA-256.');
        expect(await program.exited()).toBe(1);
        expect(proxy.state.tamperedResponses).toBeGreaterThan(0);
        expect(program.output).not.toContain(NOT_VERIFIED_TEXT);
        const left = (await readdir(programDirectory)).filter((name) => name.includes('update-'));
        expect(left).toEqual([]);
      } finally {
        proxy.state.tamper = false;
        proxy.state.tamperPathPrefix = null;
        await live.updateApplication({ version: originalVersion });
        await live.setCurrentRelease(null);
      }
    });

    it('offers the release the licence includes on UPDATES_EXPIRED, when this version came out after the updates period', async () => {
      const bytes = releaseBytes('0.9.0');
      const saved = join(programDirectory, 'update-0.9.0.bin');
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
        const program = run(await newHome());
        await logIn(program, user.username, user.password);
        await program.waitFor(`Updates Ended: ${clientMessages.updatesExpired}`);
        await program.waitFor('Your licence includes version 0.9.0. Download it? (y/n) ');
        program.send('y');
        await program.waitFor(`Update saved to ${saved}`);
        expect(await program.exited()).toBe(1);
        expect((await readFile(saved)).equals(bytes)).toBe(true);
        expect(await sessionsOf(user.id)).toEqual([]);
      } finally {
        await live.setCurrentRelease(null);
        await rm(saved, { force: true });
      }
    });
  });
  it('shows what is left of a usage meter, counts each use once, and names a used-up meter with when it resets', async () => {
    const user = await live.createEndUser();
    const meter = await live.grantTwoUseMeter(user.id);
    // The first of next month (UTC), as the sample shows it on a machine in Asia/Kolkata.
    const resets = `resets ${shownInKolkata(new Date(meter.resetsAt!))}`;
    const program = run(await newHome(), { env: { TZ: 'Asia/Kolkata' } });
    await logIn(program, user.username, user.password);
    await program.waitFor('[latchkey] session started');
    await program.waitFor(`Usage: exports: 2 of 2 left, ${resets}\n`);
    await program.waitFor('> ');

    program.send('use');
    await program.waitFor(`Usage Counted: exports: 1 of 2 left, ${resets}\n`);
    program.send('use');
    await program.waitFor(`Usage Counted: exports: 0 of 2 left, ${resets}\n`);
    // A refusing meter counts nothing past its allowance; the code titles it, not the message.
    program.send('use');
    await program.waitFor(`Usage Limit Reached: ${clientMessages.meterExhausted} (${resets})\n`);
    await live.expectTwoUsesCountedOnceEach(user.id);

    program.send('status');
    await program.waitFor(`  Usage: exports: 0 of 2 left, ${resets}\n`);
    program.send('quit');
    expect(await program.exited()).toBe(0);
  });

  it("starts this machine's trial once: a second start, under another name, logs in the same account; names a trial not offered and one ended", async () => {
    const program = run(await newHome(), { env: { TZ: 'Asia/Kolkata' } });
    const startTrial = async (username: string) => {
      await program.waitFor('Username: ');
      program.send('/trial');
      await program.waitFor('Trial username (optional): ');
      program.send(username);
    };

    // The application offers none yet: the code titles it, and the login prompt follows.
    await startTrial('');
    await program.waitFor('[latchkey] trial failed (TRIAL_UNAVAILABLE)\n');
    await program.waitFor(`Trial Unavailable: ${clientMessages.trialUnavailable}\n`);

    await live.offerTrial(7, ['PRO']);
    try {
      await startTrial('cpp_trial_user');
      await program.waitFor('[latchkey] trial ok\n');
      const account = await live.expectTrialAccount('cpp_trial_user', 7);
      // As after a login, and the trial says when it ends (in local time: Kolkata, +05:30).
      const active = `Trial Active: ${live.application.loginSuccessMessage} (trial ends ${shownInKolkata(new Date(account.expiresAt!))})\n`;
      await program.waitFor(active);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('Welcome, cpp_trial_user! ');
      await program.waitFor('Entitlements: PRO\n');
      await program.waitFor('> ');
      expect(await openSessionCount(account.id)).toBe(1);
      program.send('logout');
      await program.waitFor('You have been logged out.\n');

      // The same machine again, under another name: the trial it had, not a second one.
      await startTrial('cpp_second_trial');
      await program.waitFor(active);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('Welcome, cpp_trial_user! ');
      await program.waitFor('> ');
      await live.expectTrialAccount('cpp_trial_user', 7);
      expect(await live.findEndUser('cpp_second_trial')).toBeUndefined();
      expect(await sessionsOf(account.id)).toHaveLength(2);
      expect(await openSessionCount(account.id)).toBe(1);
      program.send('logout');
      await program.waitFor('You have been logged out.\n');

      // Its time is up: the machine's trial has ended, and says since when.
      const ended = new Date(Date.now() - 3_600_000);
      await live.updateEndUser(account.id, { expiresAt: ended.toISOString() });
      await startTrial('cpp_third_trial');
      await program.waitFor(
        `Trial Ended: ${clientMessages.trialEnded} (ended ${shownInKolkata(ended)})\n`,
      );
      await program.waitFor('Username: ');
      expect(await live.findEndUser('cpp_third_trial')).toBeUndefined();
      expect(await openSessionCount(account.id)).toBe(0);
      program.closeInput();
      expect(await program.exited()).toBe(0);
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
    const program = run(home, { env: { TZ: 'Asia/Kolkata' } });
    await logIn(program, user.username, user.password);
    const freeBy = shownInKolkata(new Date(other!.expiresAt));
    await program.waitFor(
      `All Seats In Use: ${clientMessages.noSeatAvailable} (next seat free by ${freeBy})\n`,
    );
    await live.freeSeat(other!.id);
    await logIn(program, user.username, user.password);
    await program.waitFor('[latchkey] session started');
    await program.waitFor('> ');

    // More days than the plan allows are refused, titled by the code.
    program.send('borrow 8');
    await program.waitFor(`Borrowing Not Allowed: ${clientMessages.borrowNotAllowed}\n`);
    program.send('borrow 3');
    await program.waitFor(`Seat Borrowed: ${clientMessages.seatBorrowed} (borrowed until `);
    // The borrowed licence is kept where a checked-out one is, lasting the borrow.
    const { valid_until: validUntil } = licenseContent((await readOfflineState(home)).license);
    await program.waitFor(`${shownInKolkata(new Date(validUntil))})\n`);
    expect((Date.parse(validUntil) - Date.now()) / 86_400_000).toBeCloseTo(3, 2);
    const [borrowed] = await live.seatsOf(user.id);
    expect(Math.abs(Date.parse(borrowed!.borrowedUntil!) - Date.parse(validUntil))).toBeLessThan(
      1_000,
    );

    program.send('return');
    await program.waitFor(`Seat Returned: ${clientMessages.seatReturned}\n`);
    expect(await live.seatsOf(user.id)).toMatchObject([{ id: borrowed!.id, borrowedUntil: null }]);
    expect(existsSync(offlineStateFile(home))).toBe(false);
    program.send('quit');
    expect(await program.exited()).toBe(0);
  });

  // Licence keys, made through the owner API as a vendor would.
  describe('licence keys', () => {
    let proPlanId: string;
    let teamPlanId: string;
    const newKey = async (planId: string) => (await live.generateLicenseKeys(planId))[0]!;

    beforeAll(async () => {
      const [pro, team] = await Promise.all([
        live.createPlan({
          name: 'Cpp Pro',
          durationDays: 30,
          entitlements: ['PRO', 'EXPORT_PDF'],
          updatesForDays: 365,
        }),
        live.createPlan({ name: 'Cpp Team', durationDays: null, entitlements: ['TEAM'] }),
      ]);
      proPlanId = pro.id;
      teamPlanId = team.id;
    });

    it('registers with a key and shows its entitlements, redeems another onto the account, and names a used key', async () => {
      const [proKey, teamKey] = await Promise.all([newKey(proPlanId), newKey(teamPlanId)]);
      const username = 'cpp_registered_with_key';
      const password = 'a long enough password';
      const program = run(await newHome());
      await program.waitFor('type /register to create an account');
      await program.waitFor('Username: ');
      program.send('/register');
      await program.waitFor('New username: ');
      program.send(username);
      await program.waitFor('Password: ');
      program.send(password);
      await program.waitFor('E-mail (optional): ');
      program.send('');
      await program.waitFor('Licence key (optional): ');
      program.send(proKey.key);
      await program.waitFor('Registration Successful: Registration successful');
      // Then the same username and password log in, and the main screen shows the plan.
      await program.waitFor(`Login Successful: ${live.application.loginSuccessMessage}`);
      await program.waitFor('[latchkey] session started');
      await program.waitFor(`Welcome, ${username}!`);
      await program.waitFor('Entitlements: EXPORT_PDF, PRO\n');
      await program.waitFor('Subscriptions: Cpp Pro until 20');
      await program.waitFor('Updates until: 20');
      await program.waitFor('> ');
      const user = await live.findEndUser(username);
      expect(await live.subscriptionsOf(user!.id)).toMatchObject([
        { planName: 'Cpp Pro', isActive: true },
      ]);
      expect(await openSessionCount(user!.id)).toBe(1);

      program.send('redeem');
      await program.waitFor('Licence key: ');
      program.send(teamKey.key);
      await program.waitFor('Password: ');
      program.send(password);
      await program.waitFor('Licence Key Redeemed: Licence key redeemed');
      await program.waitFor('Entitlements: EXPORT_PDF, PRO, TEAM\n');
      await program.waitFor('Cpp Team (lifetime)');
      // The lifetime plan has no updates window: every release, whatever Pro's window says.
      await program.waitFor('  Updates: every release\n');
      await program.waitFor('> ');
      expect((await live.subscriptionsOf(user!.id)).map((held) => held.planName).sort()).toEqual([
        'Cpp Pro',
        'Cpp Team',
      ]);

      // The same key again: the code picks the title, the server's text follows it.
      program.send('redeem');
      await program.waitFor('Licence key: ');
      program.send(teamKey.key);
      await program.waitFor('Password: ');
      program.send(password);
      await program.waitFor('Licence Key Used: This licence key has already been used');
      await program.waitFor('> ');
      program.send('status');
      await program.waitFor('  Entitlements: EXPORT_PDF, PRO, TEAM');
      program.send('quit');
      expect(await program.exited()).toBe(0);
      // Quitting keeps the session for the next start.
      expect(await openSessionCount(user!.id)).toBe(1);
      expect(program.output).not.toContain(password);
    });

    it('logs in with a key alone, names used and unknown keys, and asks for a key where one is required', async () => {
      const [proKey, spentKey] = await Promise.all([newKey(proPlanId), newKey(proPlanId)]);
      // Spent by a registered account: it cannot log in alone.
      await live.redeemLicenseKey(await live.createEndUser(), spentKey.key);
      const program = run(await newHome());
      await program.waitFor('Username: ');
      program.send('/key');
      await program.waitFor('Licence key: ');
      program.send(proKey.key);
      await program.waitFor(`Login Successful: ${live.application.loginSuccessMessage}`);
      await program.waitFor('[latchkey] session started');
      await program.waitFor(`Welcome, key-${proKey.id}!`);
      await program.waitFor('Entitlements: EXPORT_PDF, PRO\n');
      await program.waitFor('> ');
      const keyUser = await live.findEndUser(`key-${proKey.id}`);
      expect(await sessionsOf(keyUser!.id)).toHaveLength(1);

      program.send('logout');
      await program.waitFor('Username: ');
      program.send('/key');
      await program.waitFor('Licence key: ');
      program.send(spentKey.key);
      await program.waitFor('Licence Key Used: This licence key has already been used');
      await program.waitFor('Username: ');
      program.send('/key');
      await program.waitFor('Licence key: ');
      program.send('NOT-A-REAL-KEY');
      await program.waitFor('Invalid Licence Key: This licence key is not valid');
      await program.waitFor('Username: ');

      await live.updateApplication({ licenseRequired: true });
      try {
        program.send('/register');
        await program.waitFor('New username: ');
        program.send('cpp_without_key');
        await program.waitFor('Password: ');
        program.send('a long enough password');
        await program.waitFor('E-mail (optional): ');
        program.send('');
        await program.waitFor('Licence key (optional): ');
        program.send('');
        await program.waitFor('Licence Key Required: A licence key is required to register');
        await program.waitFor('Username: ');
        expect(await live.findEndUser('cpp_without_key')).toBeUndefined();
      } finally {
        await live.updateApplication({ licenseRequired: false });
      }
      program.closeInput();
      expect(await program.exited()).toBe(0);
      expect(program.output).not.toContain(proKey.key);
    });
  });

  // Devices. Logins name this machine; `release` frees its seat through devices/reset.
  describe('devices', () => {
    afterEach(async () => {
      await live.updateApplication({
        hwidLockEnabled: false,
        selfServiceReset: false,
        resetCooldownHours: 168,
        maxDevices: 1,
      });
    });

    /** Types `release` and the password at the main prompt. */
    const release = async (program: ConsoleProgram, password: string) => {
      program.send('release');
      await program.waitFor('Password: ');
      program.send(password);
    };
    /** The time of the next allowed release, from the line after what was waited for. */
    const nextReleaseAfter = async (program: ConsoleProgram) => {
      await program.waitFor('You can release a device again at ');
      await program.waitFor('.\n');
      const times = [
        ...program.output.matchAll(/You can release a device again at (\S+)\.\n/g),
      ].map((found) => found[1]!);
      expect(times.length).toBeGreaterThan(0);
      return times.at(-1)!;
    };

    it('names this machine, releases it (logged out; another machine may log in), then shows the cooldown and its time', async () => {
      await live.updateApplication({
        hwidLockEnabled: true,
        selfServiceReset: true,
        resetCooldownHours: 24,
      });
      const user = await live.createEndUser();
      const home = await newHome();
      const program = run(home);
      await logIn(program, user.username, user.password);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('> ');
      expect(await live.devicesOf(user.id)).toMatchObject([{ name: hostname() }]);
      expect(await live.loginFrom(user, 'another-machine')).toBe('HWID_MISMATCH');

      program.send('help');
      await program.waitFor('  release release this device (log in again from another machine)');
      await release(program, user.password);
      const releasedAt = Date.now();
      await program.waitFor('[latchkey] release ok');
      await program.waitFor(
        'Device Released: Device released: you can now log in from another machine',
      );
      const nextRelease = await nextReleaseAfter(program);
      const hoursAhead = (Date.parse(nextRelease) - releasedAt) / 3_600_000;
      expect(hoursAhead).toBeGreaterThan(23.9);
      expect(hoursAhead).toBeLessThan(24.1);
      await program.waitFor('[latchkey] logged out (device released)');
      await program.waitFor('log in again here or on another machine.');
      await program.waitFor('Username: ');
      expect(await live.devicesOf(user.id)).toEqual([]);
      expect(await sessionsOf(user.id)).toMatchObject([{ endReason: 'device_released' }]);
      expect(await openSessionCount(user.id)).toBe(0);
      expect(existsSync(savedSessionFile(home))).toBe(false);
      // The session was over: no end call was refused, and monitoring stopped with it.
      expect(program.output).not.toContain('Session end error');
      expect(await live.loginFrom(user, 'another-machine')).toBe('OK');

      // Back on this machine (a second seat now), a second release within the day is refused.
      await live.updateApplication({ maxDevices: 2 });
      program.send(user.username);
      await program.waitFor('Password: ');
      program.send(user.password);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('> ');
      await release(program, user.password);
      await program.waitFor('[latchkey] release failed (RESET_COOLDOWN)');
      await program.waitFor('Reset Not Yet Available: You released a device recently');
      expect(await nextReleaseAfter(program)).toBe(nextRelease);
      await program.waitFor('> ');
      expect((await live.devicesOf(user.id)).map((device) => device.name).sort()).toEqual(
        [hostname(), null].sort(),
      );
      expect(await openSessionCount(user.id)).toBe(1);
      expect(existsSync(savedSessionFile(home))).toBe(true);
      program.send('quit');
      expect(await program.exited()).toBe(0);
      expect(program.output).not.toContain(user.password);
    });

    it('names refusals: reset not allowed, a wrong password, no such device; an empty password cancels', async () => {
      const application = await live.updateApplication({
        hwidLockEnabled: true,
        selfServiceReset: false,
      });
      const user = await live.createEndUser();
      const program = run(await newHome());
      await logIn(program, user.username, user.password);
      await program.waitFor('> ');

      await release(program, user.password);
      await program.waitFor(
        'Reset Not Allowed: This application does not let you release devices yourself',
      );
      await program.waitFor('> ');
      await live.updateApplication({ selfServiceReset: true });
      await release(program, 'not the password');
      await program.waitFor(`Release Failed: ${application.loginFailedMessage}`);
      await program.waitFor('> ');
      await release(program, '');
      await program.waitFor('Release cancelled.');
      await program.waitFor('> ');
      expect(await live.devicesOf(user.id)).toHaveLength(1);
      expect(await openSessionCount(user.id)).toBe(1);

      // Without HWID lock no device is bound: there is none to release, and no cooldown spent.
      await live.updateApplication({ hwidLockEnabled: false });
      const unbound = await live.createEndUser();
      program.send('logout');
      await logIn(program, unbound.username, unbound.password);
      await program.waitFor('[latchkey] session started');
      await program.waitFor('> ');
      await release(program, unbound.password);
      await program.waitFor(
        'Device Not Found: No device with this hardware id is bound to your account',
      );
      await program.waitFor('> ');
      program.closeInput();
      expect(await program.exited()).toBe(0);
    });
  });
});
