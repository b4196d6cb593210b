import { hasPermission, type CodeFile, type CodeFileSummary } from '@latchkey/contracts';
import type { CodeFileRow, OwnerAccount } from '../../db/schema/index.ts';

export function toCodeFileSummary(row: CodeFileRow, account: OwnerAccount): CodeFileSummary {
  return {
    id: row.name,
    name: row.name,
    language: 'typescript',
    lastModified: row.updatedAt.toISOString(),
    canEdit: hasPermission({ role: account.role, permissions: account.permissions }, 'edit_code'),
    version: row.version,
  };
}

export function toCodeFile(row: CodeFileRow, account: OwnerAccount): CodeFile {
  return { ...toCodeFileSummary(row, account), content: row.content };
}
