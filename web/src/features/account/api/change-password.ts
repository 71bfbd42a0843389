import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { PasswordChange } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/user/password → 204, and every other session of the account ends; every API key is
 * switched off too unless `revokeApiKeys` is false; 422 names
 * `currentPassword` (wrong) or `newPassword` (too short); 429 with Retry-After.
 */
export async function changePassword(body: PasswordChange): Promise<void> {
  await api.POST("/api/user/password", { body });
}

/** Changes the password, then refetches the sessions (the others are gone), the API keys and the audit log. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditLog() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all() });
    },
  });
}
