import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The assemblies the C# sample uses, as its header comment tells a vendor building with Mono. */
const references = [
  'System.Windows.Forms.dll',
  'System.Drawing.dll',
  'System.Net.Http.dll',
  'System.Runtime.Serialization.dll',
  'System.Numerics.dll',
];

/**
 * Compiles C# sources with Mono's mcs as C# 7 (the language level the sample promises), warnings
 * shown: a compile error fails with mcs's own output.
 */
export async function compileCsharp(options: {
  sources: string[];
  output: string;
  target: 'exe' | 'winexe';
  defines?: string[];
}): Promise<void> {
  const args = [
    '-langversion:7',
    `-target:${options.target}`,
    ...references.map((reference) => `-r:${reference}`),
    ...(options.defines ?? []).map((define) => `-define:${define}`),
    `-out:${options.output}`,
    ...options.sources,
  ];
  try {
    await run('mcs', args, { timeout: 60_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcs failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}
