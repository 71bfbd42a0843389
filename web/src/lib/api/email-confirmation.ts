import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/lib/query-keys";
import { api, ApiError } from "./client";

/**
 * POST /api/auth/verify-email/resend (signed in) → 202, a new link is on its way and earlier
 * links stop working; 409 when the address is already confirmed; 429 with Retry-After (5 an
 * hour). Shared: the app shell's banner, /verify-email and the API key and webhook forms offer it.
 */
export async function resendConfirmation(): Promise<void> {
  await api.POST("/api/auth/verify-email/resend");
}

/** Asks for a new link; a 409 (confirmed meanwhile, e.g. in another tab) refetches the user, so the banner goes. */
export function useResendConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendConfirmation,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
    },
  });
}

/** The problem type of the server's refusal of what needs a confirmed address (API keys, webhooks). */
export const ADDRESS_NOT_CONFIRMED = "/docs/errors#address-not-confirmed";

/** Whether `error` is the server's refusal of something that needs a confirmed address: a 403 of that problem type. */
export function isUnconfirmedAddressRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.problem?.type === ADDRESS_NOT_CONFIRMED;
}
