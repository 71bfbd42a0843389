import { useMutation } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import type { components } from "@/lib/api/schema";

export type ContactRequest = components["schemas"]["ContactRequest"];
export type ContactReceipt = components["schemas"]["ContactReceipt"];

/**
 * POST /api/contact. The server stores the message before answering (201), and answers a
 * repeat of the same email and message within 24 hours with 200 and the first id.
 */
export function sendContactMessage(body: ContactRequest): Promise<ContactReceipt> {
  return apiJson<ContactReceipt>("POST", "/api/contact", body);
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
