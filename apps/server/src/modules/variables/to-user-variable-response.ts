import type { UserVariable } from '@latchkey/contracts';
import type { AppUserVariable } from '../../db/schema/index.ts';

/** The owner-API view of an end user's variable. */
export function toUserVariableResponse(variable: AppUserVariable): UserVariable {
  return {
    name: variable.name,
    value: variable.value,
    readOnly: variable.isReadOnly,
    createdAt: variable.createdAt.toISOString(),
    updatedAt: variable.updatedAt.toISOString(),
  };
}
