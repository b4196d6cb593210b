import type { CodeFileName } from '@latchkey/contracts';
import { apiRoutesDocument } from './code-file-seeds/api-routes-document.ts';
import { authenticationDocument } from './code-file-seeds/authentication-document.ts';
import { permissionsDocument } from './code-file-seeds/permissions-document.ts';

/**
 * The first version of each reference document, written into an account on its first read.
 * They are text for vendors to read and edit (kept as strings, not as modules of ours), and
 * a change here reaches only accounts that have not read them yet.
 */
export const codeFileSeeds: Record<CodeFileName, string> = {
  'authentication.ts': authenticationDocument,
  'permissions.ts': permissionsDocument,
  'api-routes.ts': apiRoutesDocument,
};
