import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  sampleLanguageCatalogue,
  samplePlaceholders,
  type SampleLanguage,
} from '@latchkey/contracts';
import { serverAssetPaths } from '../../server-asset-paths.ts';

const templates = new Map<SampleLanguage, Promise<string>>();

/**
 * A language's template as committed (placeholders unfilled), read once per process: the
 * files are part of the build, not data, so a change ships with a restart like code does.
 */
export function loadSampleTemplate(language: SampleLanguage): Promise<string> {
  let template = templates.get(language);
  if (!template) {
    const { filename } = sampleLanguageCatalogue[language];
    template = readFile(join(serverAssetPaths.samplesDirectory, language, filename), 'utf8');
    template.catch(() => templates.delete(language));
    templates.set(language, template);
  }
  return template;
}

export type SamplePlaceholder = keyof typeof samplePlaceholders;
export const samplePlaceholderNames = Object.keys(samplePlaceholders) as SamplePlaceholder[];
