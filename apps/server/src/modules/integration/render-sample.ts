import { samplePlaceholders } from '@latchkey/contracts';
import { samplePlaceholderNames, type SamplePlaceholder } from './sample-templates.ts';
import { toSampleLiteral } from './sample-literal.ts';

/**
 * Fills every placeholder literal of a template (`"YOUR_API_KEY"` or `'YOUR_API_KEY'`) with
 * its value as one escaped double-quoted literal. A placeholder outside quotes is left alone:
 * only a whole literal can be replaced without changing what the code around it means.
 */
export function renderSample(template: string, values: Record<SamplePlaceholder, string>): string {
  let code = template;
  for (const name of samplePlaceholderNames) {
    const literal = new RegExp(`(["'])${samplePlaceholders[name]}\\1`, 'g');
    code = code.replace(literal, () => toSampleLiteral(values[name]));
  }
  return code;
}
