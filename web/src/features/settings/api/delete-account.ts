import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { CURRENT_USER_QUERY_KEY } from "@/lib/api/current-user";
import type { AccountDeletion } from "@/lib/api/models";

/**
 * DELETE /api/user {password} → 204: the account and everything that is its own are deleted
 * and the session cookie is cleared; 422 when the password is wrong; 429 with Retry-After.
 */
export async function deleteAccount(body: AccountDeletion): Promise<void> {
  await api.DELETE("/api/user", { body });
}

/** Deletes the account, then forgets the user and every cached answer (as signing out does). */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_QUERY_KEY[0] });
      queryClient.getMutationCache().clear();
    },
  });
}
