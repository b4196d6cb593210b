import type { ApplicationVariable as ApplicationVariableResponse } from '@latchkey/contracts';
import type { AppVariable } from '../../db/schema/index.ts';

/** The owner-API view of an application variable. */
export function toApplicationVariableResponse(variable: AppVariable): ApplicationVariableResponse {
  return {
    id: variable.id,
    name: variable.name,
    value: variable.value,
    requiresSession: variable.requiresSession,
    createdAt: variable.createdAt.toISOString(),
    updatedAt: variable.updatedAt.toISOString(),
  };
}
