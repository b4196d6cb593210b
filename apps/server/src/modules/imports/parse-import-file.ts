import type { ImportKind } from '@latchkey/contracts';
import { badRequest } from '../../lib/errors.ts';
import {
  type KeyAuthBanRow,
  type KeyAuthFileRow,
  type KeyAuthSubscriptionRow,
  type KeyAuthUserVariableRow,
  type KeyAuthVariableRow,
  parseKeyAuthApplication,
  parseKeyAuthBans,
  parseKeyAuthFiles,
  parseKeyAuthSubscriptions,
  parseKeyAuthUserVariables,
  parseKeyAuthVariables,
} from './keyauth-application-export.ts';
import {
  type KeyAuthApplication,
  type KeyAuthKeyRow,
  type KeyAuthUserRow,
  parseKeyAuthKeys,
  parseKeyAuthUsers,
  UnreadableExportError,
  type UnreadableRow,
} from './keyauth-export.ts';

interface ParsedRows<Kind extends ImportKind, Row> {
  kind: Kind;
  format: string;
  rows: Row[];
  unreadable: UnreadableRow[];
  /** The application's KeyAuth settings the file holds, kept apart from its rows. */
  application: KeyAuthApplication | null;
}

/** An uploaded file as its kind's reader made it. */
export type ParsedImportFile =
  | ParsedRows<'users', KeyAuthUserRow>
  | ParsedRows<'keys', KeyAuthKeyRow>
  | ParsedRows<'subscriptions', KeyAuthSubscriptionRow>
  | ParsedRows<'variables', KeyAuthVariableRow>
  | ParsedRows<'user-variables', KeyAuthUserVariableRow>
  | ParsedRows<'blacklist', KeyAuthBanRow>
  | ParsedRows<'files', KeyAuthFileRow>
  // The apps table's one row is the settings themselves: no rows to write in batches.
  | ParsedRows<'application', never>;

/** Reads the file as `kind`; a file that cannot be read at all is a 400 saying why. */
export function parseImportFile(kind: ImportKind, bytes: Uint8Array): ParsedImportFile {
  try {
    switch (kind) {
      case 'users':
        return { kind, ...parseKeyAuthUsers(bytes) };
      case 'keys':
        return { kind, ...parseKeyAuthKeys(bytes) };
      case 'subscriptions':
        return { kind, ...parseKeyAuthSubscriptions(bytes) };
      case 'variables':
        return { kind, ...parseKeyAuthVariables(bytes) };
      case 'user-variables':
        return { kind, ...parseKeyAuthUserVariables(bytes) };
      case 'blacklist':
        return { kind, ...parseKeyAuthBans(bytes) };
      case 'files':
        return { kind, ...parseKeyAuthFiles(bytes) };
      case 'application': {
        const parsed = parseKeyAuthApplication(bytes);
        return { kind, ...parsed, rows: [] };
      }
    }
  } catch (error) {
    // The readers' messages name lines and columns, never a key, a hash or a secret.
    if (error instanceof UnreadableExportError) throw badRequest(error.message);
    throw error;
  }
}
