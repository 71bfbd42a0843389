import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ForgotPasswordRequest, ResetRequested } from "@/lib/api/models";

/**
 * POST /api/auth/forgot-password {email} → 202 with a message that is the same whether or not
 * an account has the address; 422 for a malformed address; 429 with Retry-After.
 */
export function forgotPassword(body: ForgotPasswordRequest): Promise<ResetRequested> {
  return dataOf(api.POST("/api/auth/forgot-password", { body }));
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
