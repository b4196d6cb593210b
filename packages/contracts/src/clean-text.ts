import { z } from 'zod';

/**
 * Text Latchkey accepts: well-formed UTF-16 (no lone surrogate, which has no UTF-8 form and
 * breaks PostgreSQL's jsonb) and no U+0000 (which PostgreSQL's text and jsonb refuse).
 */
export function isCleanText(value: string): boolean {
  return value.isWellFormed() && !value.includes('\0');
}

export const CLEAN_TEXT_MESSAGE = 'text must be valid Unicode without NUL characters';

/** A string schema that refuses what `isCleanText` refuses; chain limits onto it as usual. */
export const cleanText = (message: string = CLEAN_TEXT_MESSAGE) =>
  z.string().refine(isCleanText, { message, abort: true });
