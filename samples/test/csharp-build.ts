import { copyFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The framework assemblies the C# sample uses, as its header comment tells a vendor building with Mono. */
const frameworkReferences = [
  'System.Windows.Forms.dll',
  'System.Drawing.dll',
  'System.Runtime.Serialization.dll',
];

/**
 * Compiles C# sources with Mono's mcs as C# 7 (the language level the sample promises), warnings
 * shown, against the framework's assemblies and the installed Latchkey.Client.dll, which is
 * copied beside the program as a vendor's build output has it (mono loads it from there): a
 * compile error fails with mcs's own output.
 */
export async function compileCsharp(options: {
  sources: string[];
  output: string;
  target: 'exe' | 'winexe';
  sdkDll: string;
}): Promise<void> {
  const args = [
    '-langversion:7',
    `-target:${options.target}`,
    ...frameworkReferences.map((reference) => `-r:${reference}`),
    `-r:${options.sdkDll}`,
    `-out:${options.output}`,
    ...options.sources,
  ];
  try {
    await run('mcs', args, { timeout: 60_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcs failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
  copyFileSync(options.sdkDll, join(dirname(options.output), basename(options.sdkDll)));
}
