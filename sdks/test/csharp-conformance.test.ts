import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeDriverConformance } from './driver-conformance.ts';
import {
  canBuildCsharpSdk,
  installCsharpSdk,
  readZipEntries,
  type InstalledCsharpSdk,
} from './installed-csharp-sdk.ts';

/**
 * The C# SDK's run of the language-neutral conformance suite (sdks/conformance):
 * Latchkey.Client is built with mcs and packed with nuget, installed from that nupkg outside the
 * repository, and a long-lived C# driver compiled against the installed DLL alone performs every
 * vector and every scenario's calls under mono, against a live Latchkey behind a proxy that can
 * attack each step. The scenarios, the owner's actions, the proxy and every expectation are the
 * shared runner's.
 */

const sourceDir = fileURLToPath(new URL('../csharp/src/', import.meta.url));

interface PackageInfo {
  file: string;
  version: string;
  referencedAssemblies: string[];
  pinvokeMethods: string[];
}

/** What the library may link to: the framework's own assemblies, nothing native or GUI. */
const frameworkAssemblies = [
  'mscorlib',
  'System',
  'System.Core',
  'System.Net.Http',
  'System.Numerics',
];

/** The zip bookkeeping every nupkg carries (Open Packaging Conventions), beside its files. */
const isPackagingPart = (name: string) =>
  name.startsWith('_rels/') || name.startsWith('package/') || name === '[Content_Types].xml';

describeDriverConformance<InstalledCsharpSdk>({
  name: 'the C# SDK (Latchkey.Client)',
  available: canBuildCsharpSdk,
  install: installCsharpSdk,
  packageTests(installed) {
    it('is a nupkg holding the .NET Framework 4.5 DLL and its documentation, nothing else', () => {
      const sdk = installed();
      expect(sdk.nupkgName).toMatch(/^Latchkey\.Client\.\d+\.\d+\.\d+\.nupkg$/);
      const entries = readZipEntries(sdk.nupkg);
      expect([...entries.keys()].filter((name) => !isPackagingPart(name)).sort()).toEqual([
        'Latchkey.Client.nuspec',
        'lib/net45/Latchkey.Client.dll',
        'lib/net45/Latchkey.Client.xml',
      ]);
      const nuspec = entries.get('Latchkey.Client.nuspec')!.toString('utf8');
      expect(/<id>([^<]*)<\/id>/.exec(nuspec)?.[1]).toBe('Latchkey.Client');
      expect(/<version>([^<]*)<\/version>/.exec(nuspec)?.[1]).toBe(sdk.version);
      // Only framework assemblies: nothing for a vendor's project to fetch.
      expect(nuspec).not.toContain('<dependencies');
      expect(entries.get('lib/net45/Latchkey.Client.xml')!.toString('utf8')).toContain(
        'M:Latchkey.LatchkeyClient.LoginAsync(System.String,System.String)',
      );
    });

    it('runs the DLL taken out of the nupkg, stamped with the package’s version', async () => {
      const sdk = installed();
      const info = await sdk.driver.send<PackageInfo>('info');
      expect(info.file).toBe(join(sdk.appDir, 'Latchkey.Client.dll'));
      const packed = readZipEntries(sdk.nupkg).get('lib/net45/Latchkey.Client.dll')!;
      expect(readFileSync(info.file).equals(packed)).toBe(true);
      expect(readFileSync(sdk.installedDll).equals(packed)).toBe(true);
      expect(info.version).toBe(sdk.version);
    });

    it('links to framework assemblies only, with no native code and no WinForms', async () => {
      const info = await installed().driver.send<PackageInfo>('info');
      expect(
        info.referencedAssemblies.filter((name) => !frameworkAssemblies.includes(name)),
      ).toEqual([]);
      expect(info.referencedAssemblies).not.toContain('System.Windows.Forms');
      // A [DllImport] method is compiled with the PinvokeImpl flag: the DLL itself has none.
      expect(info.pinvokeMethods).toEqual([]);
    });

    it('never prints, exits the process or shows a window (its sources)', () => {
      const sources = readdirSync(sourceDir).filter((name) => name.endsWith('.cs'));
      expect(sources.length).toBeGreaterThan(5);
      for (const name of sources) {
        const text = readFileSync(join(sourceDir, name), 'utf8');
        for (const forbidden of [
          /\bConsole\./,
          /\bEnvironment\.Exit\b/,
          /\bDllImport\b/,
          /System\.Windows\.Forms/,
          /\bDebug\.Write/,
          /\bTrace\.Write/,
        ]) {
          expect(forbidden.test(text), `${name}: ${forbidden}`).toBe(false);
        }
      }
    });
  },
});
