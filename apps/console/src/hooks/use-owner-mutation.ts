import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api.ts';
import { DASHBOARD_STATS_QUERY_KEY } from './owner-query-keys.ts';
import { toast } from './use-toast.ts';
import { APPLICATIONS_QUERY_KEY } from './owner-query-keys.ts';

/** A problem found in the console before any request; its message is meant for the owner. */
export class ConsoleInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsoleInputError';
  }
}

const STATUS_PREFIX = /^\d{3}: ([\s\S]*)$/;

/**
 * The `message` of the server's `{ message, code }` error body. Errors take the
 * "{status}: {body}" form, so a plain Error in that form is read as well as an ApiError. A
 * refused field's problem is read in words, without the field's name in the request that the
 * message starts with (`maxSessionsPerUser: …` is for a script's author, not the owner).
 */
export function getServerMessage(error: unknown): string | null {
  if (error instanceof ApiError) return error.fieldProblems[0]?.message ?? error.serverMessage;
  if (!(error instanceof Error)) return null;
  const body = STATUS_PREFIX.exec(error.message)?.[1];
  if (body === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const { message } = parsed;
      if (typeof message === 'string' && message !== '') return message;
    }
  } catch {
    // not JSON: nothing the owner should read
  }
  return null;
}

/**
 * What an error toast says: the server's words, else the spec's fallback. Network failures and
 * unexpected response shapes get the fallback, never a stack-trace-like message.
 */
export function getErrorToastMessage(error: unknown, fallback: string): string {
  if (error instanceof ConsoleInputError) return error.message;
  return getServerMessage(error) ?? fallback;
}

export function invalidateOwnerData(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_QUERY_KEY }),
  ]);
}

/**
 * A change to the owner's data with a 'Success' toast or a destructive 'Error' one, after
 * which the application list, user lists and dashboard stats are refetched.
 */
export function useOwnerMutation<TVariables, TData = unknown>({
  mutationFn,
  successMessage,
  errorMessage,
  isSettledAfterOwnerData = true,
}: {
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** Or worded from the answer (a bulk action's counts). */
  successMessage: string | ((data: TData) => string);
  errorMessage: string;
  /**
   * Whether the mutation stays pending until the application list and dashboard stats are
   * re-read. Off for a list that re-reads itself first: its form may take the next entry at
   * once, rather than ignore it while unrelated lists (restarted by a live event) load.
   */
  isSettledAfterOwnerData?: boolean;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (data) => {
      toast({
        title: 'Success',
        description: typeof successMessage === 'function' ? successMessage(data) : successMessage,
      });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, errorMessage),
        variant: 'destructive',
      });
    },
    // Also after a failure: a 404 usually means something changed elsewhere.
    onSettled: () => {
      const reread = invalidateOwnerData(queryClient);
      return isSettledAfterOwnerData ? reread : undefined;
    },
  });
}

/**
 * An owner mutation whose list is re-read before the mutation settles, also after a failure
 * (lists refresh after their mutations, and a 404 or a conflict usually means the list changed
 * elsewhere), so a dialog closes onto the new list.
 */
export function useListMutation<TVariables, TData>({
  listQueryKey,
  mutationFn,
  successMessage,
  errorMessage,
}: {
  listQueryKey: readonly unknown[];
  mutationFn: (variables: TVariables) => Promise<TData>;
  successMessage: string;
  errorMessage: string;
}) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (variables: TVariables) => {
      try {
        return await mutationFn(variables);
      } finally {
        await queryClient.invalidateQueries({ queryKey: listQueryKey });
      }
    },
    successMessage,
    errorMessage,
    isSettledAfterOwnerData: false,
  });
}
