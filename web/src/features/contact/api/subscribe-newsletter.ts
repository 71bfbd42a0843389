import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { NewsletterReceipt, NewsletterRequest } from "@/lib/api/models";

export type NewsletterResult = NewsletterReceipt & {
  /** True when the address was already on the list (the server answered 200, not 201). */
  alreadySubscribed: boolean;
};

/** POST /api/newsletter: 201 for a new subscriber, 200 when already subscribed. */
export async function subscribeNewsletter(body: NewsletterRequest): Promise<NewsletterResult> {
  const { data, response } = await api.POST("/api/newsletter", { body });
  // A non-OK answer has thrown an ApiError, so `data` is the receipt.
  return { subscribed: data?.subscribed === true, alreadySubscribed: response.status === 200 };
}

export function useSubscribeNewsletter() {
  return useMutation({ mutationFn: subscribeNewsletter });
}
