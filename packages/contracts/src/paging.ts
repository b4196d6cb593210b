import { z } from 'zod';

/** Rows per page when a list request names none; also what keeps every answer bounded. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const pagingLimits = { search: 100 } as const;

/**
 * A search counts its matches up to this many: counting every match of a search that matches
 * most of a million-row log took a second. Past it, a list's total is reported as this number
 * with X-Total-Count-Capped, and the console says "10,000+".
 */
export const SEARCH_COUNT_LIMIT = 10_000;

/**
 * Response headers of a paged list. The body stays the plain JSON array the spec shows;
 * the total number of matching rows (all pages) travels beside it.
 */
export const pagingHeaders = {
  totalCount: 'x-total-count',
  page: 'x-page',
  pageSize: 'x-page-size',
  /** 'true' when a search matched more than SEARCH_COUNT_LIMIT rows (the total is a floor). */
  totalCountCapped: 'x-total-count-capped',
} as const;

// A query string value arrives as a string (or an array when repeated: refused below).
const positiveInteger = (field: string, max: number) =>
  z
    .string(`${field} must be a whole number`)
    .regex(/^[1-9]\d{0,8}$/, `${field} must be a whole number from 1`)
    .transform(Number)
    .refine((value) => value <= max, `${field} must be at most ${max}`);

/** Control characters and lone UTF-16 surrogates: never valid in text we accept. */
const hasInvalidCharacters = (value: string) => /[\p{Cc}\p{Cs}]/u.test(value);

/**
 * ?page (1-based), ?pageSize and ?search (case-insensitive substring). '' counts as absent,
 * so a console's empty search box needs no special case.
 */
export const pageQueryFields = {
  page: z.preprocess(
    (value) => (value === '' ? undefined : value),
    positiveInteger('page', 10_000_000).default(1),
  ),
  pageSize: z.preprocess(
    (value) => (value === '' ? undefined : value),
    positiveInteger('pageSize', MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  ),
  search: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value),
    z
      .string('search must be text')
      .max(pagingLimits.search, `search must be at most ${pagingLimits.search} characters`)
      .refine((value) => !hasInvalidCharacters(value), 'search contains invalid characters')
      .optional(),
  ),
};

export interface PageRequest {
  page: number;
  pageSize: number;
  search?: string | undefined;
}

/**
 * One page of a list and how many rows match in all; `isTotalCapped` when a search matched
 * more than SEARCH_COUNT_LIMIT rows, and `totalCount` is that limit.
 */
export interface Page<Row> {
  rows: Row[];
  totalCount: number;
  isTotalCapped?: boolean;
}

const headerCount = z.string().regex(/^\d+$/);

/** The paging headers as a schema: documented in the OpenAPI document, checked in tests. */
export const pagingResponseHeadersSchema = z.object({
  [pagingHeaders.totalCount]: headerCount.meta({
    description: 'How many rows match in all pages.',
  }),
  [pagingHeaders.page]: headerCount.meta({ description: 'The page this body holds (1-based).' }),
  [pagingHeaders.pageSize]: headerCount.meta({ description: 'Rows per page.' }),
  [pagingHeaders.totalCountCapped]: z
    .literal('true')
    .optional()
    .meta({
      description: `Present when a search matched more than ${SEARCH_COUNT_LIMIT} rows: ${pagingHeaders.totalCount} is then ${SEARCH_COUNT_LIMIT}, a floor, not the total.`,
    }),
});
