import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api/client";
import type { components } from "@/lib/api/schema";

export type NewsletterRequest = components["schemas"]["NewsletterRequest"];
export type NewsletterResult = components["schemas"]["NewsletterReceipt"] & {
  /** True when the address was already on the list (the server answered 200, not 201). */
  alreadySubscribed: boolean;
};

/** POST /api/newsletter: 201 for a new subscriber, 200 when already subscribed. */
export async function subscribeNewsletter(body: NewsletterRequest): Promise<NewsletterResult> {
  const res = await apiRequest("POST", "/api/newsletter", body);
  const receipt = (await res.json()) as components["schemas"]["NewsletterReceipt"];
  return { ...receipt, alreadySubscribed: res.status === 200 };
}

export function useSubscribeNewsletter() {
  return useMutation({ mutationFn: subscribeNewsletter });
}
