import { codeFileMessages, codeFileNameSchema, type CodeFileName } from '@latchkey/contracts';
import { notFound } from '../../lib/errors.ts';

/** A document name from the path: one of the three, else a 404 like any unknown id. */
export function toCodeFileName(name: string): CodeFileName {
  const parsed = codeFileNameSchema.safeParse(name);
  if (!parsed.success) throw notFound(codeFileMessages.notFound);
  return parsed.data;
}
