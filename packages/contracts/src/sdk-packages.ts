import { z } from 'zod';
import { sampleLanguageSchema, type SampleLanguage } from './samples.ts';

/**
 * The client SDK packages a Latchkey server serves at /sdk/ (built by `npm run build:sdks`),
 * one per language, named by the same language ids as the samples. `GET /sdk/index.json`
 * answers this list; each file is at `/sdk/<file>`.
 */
export const sdkPackageSchema = z.object({
  language: sampleLanguageSchema,
  name: z.string(),
  version: z.string(),
  file: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type SdkPackage = z.infer<typeof sdkPackageSchema>;

export const sdkPackagesIndexSchema = z.object({ packages: z.array(sdkPackageSchema) });
export type SdkPackagesIndex = z.infer<typeof sdkPackagesIndexSchema>;

export const SDK_PACKAGES_INDEX_PATH = '/sdk/index.json';

/** GET /sdk/:file: a package's file name as the build writes it (no path, no leading dot). */
export const sdkPackageFileParamsSchema = z.object({
  file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/),
});

/**
 * How a vendor adds the package served at `url` to a program, one line per step, in each
 * ecosystem's own tool: npm and pip install from an address; NuGet and CMake need the file
 * first.
 */
export function sdkInstallLines(language: SampleLanguage, url: string, sdk: SdkPackage): string[] {
  switch (language) {
    case 'nodejs':
      return [`npm install ${url}`];
    case 'python':
      return [`pip install "latchkey[nacl] @ ${url}"`];
    case 'csharp':
      return [
        `curl -fLO ${url}`,
        `dotnet add package ${sdk.name} --version ${sdk.version} --source .`,
      ];
    case 'cpp':
      return [
        `curl -fL ${url} | tar -xz`,
        `cmake -S latchkey-${sdk.version} -B latchkey-build && cmake --build latchkey-build`,
        'sudo cmake --install latchkey-build',
      ];
  }
}
