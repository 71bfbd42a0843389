import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api/client";

/** Query defaults from the product spec, section 9. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        gcTime: 5 * 60 * 1000,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
