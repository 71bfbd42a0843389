import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { SmsPreferencesInput, SmsSettings } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/sms: whether this deployment texts, the number, its verification, the kinds texted and the quiet hours. */
export function getSmsSettings(): Promise<SmsSettings> {
  return dataOf(api.GET("/api/sms"));
}

export function useSmsSettings() {
  return useQuery({ queryKey: queryKeys.sms(), queryFn: getSmsSettings });
}

/** Every change answers the settings as stored: they become the cache. */
function useSmsMutation<T>(call: (input: T) => Promise<SmsSettings | void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(queryKeys.sms(), saved);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.sms() });
    },
  });
}

/** PUT /api/sms/phone → 202, a code texted; 403 on Free, 422 naming `phone`, 429 after five codes an hour. */
export function useSendSmsCode() {
  return useSmsMutation((phone: string) => dataOf(api.PUT("/api/sms/phone", { body: { phone } })));
}

/** POST /api/sms/phone/verify → 200 verified; 422 naming `code` (wrong, run out or used up). */
export function useVerifySmsCode() {
  return useSmsMutation((code: string) => dataOf(api.POST("/api/sms/phone/verify", { body: { code } })));
}

/** PUT /api/sms/preferences: the kinds texted (the whole set) and the quiet hours. */
export function useSaveSmsPreferences() {
  return useSmsMutation((body: SmsPreferencesInput) => dataOf(api.PUT("/api/sms/preferences", { body })));
}

/** DELETE /api/sms/phone → 204: nothing more is texted. */
export function useRemoveSmsPhone() {
  return useSmsMutation(async () => {
    await dataOf(api.DELETE("/api/sms/phone"));
  });
}
