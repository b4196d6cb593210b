import {
  applicationVariableListSchema,
  applicationVariableSchema,
  userVariableListSchema,
  userVariableSchema,
  type CreateApplicationVariableRequest,
  type PutUserVariableRequest,
  type UpdateApplicationVariableRequest,
} from '@latchkey/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPageQueryString } from '@/lib/paged-list.ts';
import { applicationVariablesQueryKey, userVariablesQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const VARIABLES_FETCH_ERROR = 'Failed to fetch variables';

function variablesUrl(applicationId: number, variableId?: string): string {
  const url = `/api/applications/${applicationId}/variables`;
  return variableId === undefined ? url : `${url}/${encodeURIComponent(variableId)}`;
}

function userVariablesUrl(applicationId: number, userId: string, name?: string): string {
  const url = `/api/applications/${applicationId}/users/${encodeURIComponent(userId)}/variables`;
  return name === undefined ? url : `${url}/${encodeURIComponent(name)}`;
}

/**
 * An application's variables by name, those matching `search` when there is one. Sent whole:
 * an application holds a handful. The rows shown stay while a new search loads.
 */
export function useApplicationVariables(applicationId: number, search: string) {
  return useQuery({
    queryKey: [...applicationVariablesQueryKey(applicationId), { search }],
    queryFn: async () => {
      const query = toPageQueryString({ search: search.trim() });
      const response = await apiRequest('GET', `${variablesUrl(applicationId)}${query}`);
      return applicationVariableListSchema.parse(await response.json());
    },
    placeholderData: keepPreviousData,
  });
}

export function useCreateVariable(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationVariablesQueryKey(applicationId),
    mutationFn: async (variable: CreateApplicationVariableRequest) =>
      applicationVariableSchema.parse(
        await (await apiRequest('POST', variablesUrl(applicationId), variable)).json(),
      ),
    successMessage: 'Variable created successfully',
    errorMessage: 'Failed to create variable',
  });
}

export interface VariableUpdate {
  variableId: string;
  changes: UpdateApplicationVariableRequest;
}

export function useUpdateVariable(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationVariablesQueryKey(applicationId),
    mutationFn: async ({ variableId, changes }: VariableUpdate) =>
      applicationVariableSchema.parse(
        await (await apiRequest('PUT', variablesUrl(applicationId, variableId), changes)).json(),
      ),
    successMessage: 'Variable updated successfully',
    errorMessage: 'Failed to update variable',
  });
}

export function useDeleteVariable(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationVariablesQueryKey(applicationId),
    mutationFn: async (variableId: string) => {
      await apiRequest('DELETE', variablesUrl(applicationId, variableId));
    },
    successMessage: 'Variable deleted successfully',
    errorMessage: 'Failed to delete variable',
  });
}

/** One end user's variables by name (at most 100), for their Edit User dialog. */
export function useUserVariables(applicationId: number, userId: string) {
  return useQuery({
    queryKey: userVariablesQueryKey(applicationId, userId),
    queryFn: async () =>
      userVariableListSchema.parse(
        await (await apiRequest('GET', userVariablesUrl(applicationId, userId))).json(),
      ),
  });
}

export interface UserVariableWrite {
  name: string;
  variable: PutUserVariableRequest;
}

/** Adds or replaces one of the user's variables (the same PUT); the list is re-read after. */
export function useSetUserVariable(applicationId: number, userId: string) {
  return useListMutation({
    listQueryKey: userVariablesQueryKey(applicationId, userId),
    mutationFn: async ({ name, variable }: UserVariableWrite) =>
      userVariableSchema.parse(
        await (
          await apiRequest('PUT', userVariablesUrl(applicationId, userId, name), variable)
        ).json(),
      ),
    successMessage: 'Variable saved successfully',
    errorMessage: 'Failed to save variable',
  });
}

export function useDeleteUserVariable(applicationId: number, userId: string) {
  return useListMutation({
    listQueryKey: userVariablesQueryKey(applicationId, userId),
    mutationFn: async (name: string) => {
      await apiRequest('DELETE', userVariablesUrl(applicationId, userId, name));
    },
    successMessage: 'Variable deleted successfully',
    errorMessage: 'Failed to delete variable',
  });
}
