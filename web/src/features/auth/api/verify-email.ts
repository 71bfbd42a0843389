import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { EmailVerified, User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/auth/verify-email {token} → 200 with the account and whether the 14-day Pro trial
 * started; 422 naming `token` when the link has expired or was already used. Needs no session.
 */
export function verifyEmail(token: string): Promise<EmailVerified> {
  return dataOf(api.POST("/api/auth/verify-email", { body: { token } }));
}

/**
 * Confirms the address. When this browser is signed in to that account, the cached user is
 * replaced (the banner goes, the trial's plan shows); signed in as someone else, the user is refetched.
 */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: ({ user }) => {
      const current = queryClient.getQueryData<User | null>(queryKeys.currentUser());
      if (current && current.id === user.id) {
        queryClient.setQueryData(queryKeys.currentUser(), user);
        void queryClient.invalidateQueries({ queryKey: queryKeys.subscription() });
      } else if (current) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
      }
    },
  });
}
