import type { z } from 'zod';

/** One call of the client API as people read about it. */
export interface ClientCallEntry {
  method: 'GET' | 'POST';
  path: `/api/v1/${string}`;
  /** What the call does, in a sentence (the console's /docs reference). */
  summary: string;
  /** The path's parameters (`/api/v1/meters/:name/use`), when it has any. */
  params?: z.ZodObject;
  /** The body's schema; null for a call without one. */
  request: z.ZodType | null;
  /** The answer's schema (HTTP 200; refusals are answers too, with a `code`). */
  response: z.ZodType;
  /** Its inputs and purpose in one line (the code editor's seeded api-routes.ts). */
  brief: string;
}
