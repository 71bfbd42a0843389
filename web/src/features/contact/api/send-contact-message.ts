import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ContactReceipt, ContactRequest } from "@/lib/api/models";

/**
 * POST /api/contact. The server stores the message before answering (201), and answers a
 * repeat of the same email and message within 24 hours with 200 and the first id.
 */
export function sendContactMessage(body: ContactRequest): Promise<ContactReceipt> {
  return dataOf(api.POST("/api/contact", { body }));
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
