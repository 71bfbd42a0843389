import { useMutation } from "@tanstack/react-query";
import { createSubscription } from "@/lib/api/billing";

/**
 * Choosing a paid plan on /pricing: POST /api/create-subscription first, so the provider is
 * known for the 'Redirecting to' toast before /subscribe opens.
 */
export function useStartSubscription() {
  return useMutation({ mutationKey: ["/api/create-subscription"], mutationFn: createSubscription });
}
