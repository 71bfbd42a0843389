import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { ResetPasswordRequest } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/auth/reset-password {token, newPassword} → 204: every session of the account has
 * ended and all its API keys are switched off; 422 naming `token` (the link no longer works) or
 * `newPassword`; 429 with Retry-After.
 */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  await api.POST("/api/auth/reset-password", { body });
}

/**
 * Sets the new password. This browser's session (if any) ended with the others, so the user
 * and every cached answer are forgotten; the page stays mounted (its route is outside the
 * signed-in and signed-out tables) and says what happened.
 */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      if (queryClient.getQueryData(queryKeys.currentUser())) {
        queryClient.setQueryData(queryKeys.currentUser(), null);
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser()[0] });
      }
    },
  });
}
