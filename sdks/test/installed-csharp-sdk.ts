import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { hasTool } from '../../samples/test/require-tool.ts';
import { installInTemporaryFolder, runBuildStep } from './build-step.ts';
import { startDriverProcess } from './driver-process.ts';

const packageDir = fileURLToPath(new URL('../csharp/', import.meta.url));
const driverSource = fileURLToPath(
  new URL('../csharp/conformance/ConformanceDriver.cs', import.meta.url),
);

/** C# steps may take a while (mono's compiler, nuget); never forever. */
const run = (command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv) =>
  runBuildStep(command, args, { cwd, timeoutMs: 180_000, ...(env ? { env } : {}) });

/**
 * Whether this machine can build, pack and run the C# SDK; with CI=true a missing tool is a
 * failure, not a skip. nuget is looked up rather than run: every informational command of
 * Debian's nuget 2.8.7 spins forever when its output is not a terminal.
 */
export function canBuildCsharpSdk(): boolean {
  return (
    hasTool('mcs', ['--version'], 'mono-mcs libmono-system-net-http4.0-cil') &&
    hasTool('mono', ['--version'], 'mono-runtime') &&
    hasTool('sh', ['-c', 'command -v nuget'], 'nuget')
  );
}

/**
 * Builds Latchkey.Client.dll and packs it into its nupkg with `sdks/csharp/build.sh` (output
 * inside `workDir`, outside the repository), then installs the package from that folder as a
 * local feed with `nuget install` the way a vendor's project would: the DLL taken out of the
 * nupkg is what programs are compiled against.
 */
async function buildAndInstallPackage(workDir: string) {
  const buildDir = join(workDir, 'build');
  const nupkg = (await run('sh', [join(packageDir, 'build.sh'), buildDir], workDir)).trim();
  const nupkgName = nupkg.slice(nupkg.lastIndexOf('/') + 1);
  const version = /^Latchkey\.Client\.(.+)\.nupkg$/.exec(nupkgName)?.[1];
  if (!version) throw new Error(`build.sh answered no nupkg: ${nupkg}`);

  // nuget keeps its settings and cache under HOME: a throwaway one, and the feed alone.
  const nugetHome = join(workDir, 'nuget-home');
  mkdirSync(nugetHome);
  const packagesDir = join(workDir, 'packages');
  await run(
    'nuget',
    [
      'install',
      'Latchkey.Client',
      '-Version',
      version,
      '-Source',
      buildDir,
      '-OutputDirectory',
      packagesDir,
      '-NonInteractive',
    ],
    workDir,
    { ...process.env, HOME: nugetHome },
  );
  const installedDll = join(
    packagesDir,
    `Latchkey.Client.${version}`,
    'lib',
    'net45',
    'Latchkey.Client.dll',
  );
  return { version, nupkg, nupkgName, installedDll };
}

/**
 * The package alone, built and installed in a fresh folder outside the repository, for a
 * program built against it (the C# sample); `remove` deletes the folder.
 */
export async function installCsharpSdkPackage() {
  const workDir = mkdtempSync(join(tmpdir(), 'latchkey-sdk-csharp-'));
  try {
    return {
      ...(await buildAndInstallPackage(workDir)),
      workDir,
      async remove() {
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The installed package (see buildAndInstallPackage) with the conformance driver compiled by
 * mcs against that extracted DLL alone of Latchkey's (and the framework's System.Net.Http),
 * beside it as in a vendor's build output, and started under mono, so every call goes through
 * the installed package.
 */
export function installCsharpSdk() {
  return installInTemporaryFolder('latchkey-sdk-csharp-', async (workDir) => {
    const { version, nupkg, nupkgName, installedDll } = await buildAndInstallPackage(workDir);

    const appDir = join(workDir, 'app');
    mkdirSync(appDir);
    const driverExe = join(appDir, 'ConformanceDriver.exe');
    await run(
      'mcs',
      [
        '-langversion:7',
        '-target:exe',
        '-warnaserror+',
        `-r:${installedDll}`,
        // The framework's own HTTP client, for the driver's plain requests (timeRawCalls).
        '-r:System.Net.Http.dll',
        `-out:${driverExe}`,
        driverSource,
      ],
      workDir,
    );
    copyFileSync(installedDll, join(appDir, 'Latchkey.Client.dll'));

    // No MONO_PATH: the DLL beside the program is the only Latchkey.Client mono can find.
    const env = { ...process.env };
    delete env.MONO_PATH;
    const driver = startDriverProcess('mono', [driverExe], {
      cwd: appDir,
      label: 'C# driver',
      env,
    });
    return { driver, appDir, version, nupkg, nupkgName, installedDll };
  });
}

export type InstalledCsharpSdk = Awaited<ReturnType<typeof installCsharpSdk>>;
export type InstalledCsharpSdkPackage = Awaited<ReturnType<typeof installCsharpSdkPackage>>;

/**
 * The files of a zip archive (a nupkg is one), by name, each inflated: read through the
 * archive's central directory, with no tool beyond Node's zlib.
 */
export function readZipEntries(path: string): Map<string, Buffer> {
  const archive = readFileSync(path);
  const endOfDirectory = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error(`${path} is not a zip archive`);
  const count = archive.readUInt16LE(endOfDirectory + 10);
  let offset = archive.readUInt32LE(endOfDirectory + 16);
  const entries = new Map<string, Buffer>();
  for (let index = 0; index < count; index += 1) {
    if (archive.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${path}: bad directory`);
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localHeader = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart =
      localHeader +
      30 +
      archive.readUInt16LE(localHeader + 26) +
      archive.readUInt16LE(localHeader + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, method === 0 ? Buffer.from(data) : inflateRawSync(data));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
