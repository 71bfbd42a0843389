import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { AccountDeletion } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

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
      queryClient.setQueryData(queryKeys.currentUser(), null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser()[0] });
      queryClient.getMutationCache().clear();
    },
  });
}
