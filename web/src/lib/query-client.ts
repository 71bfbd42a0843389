import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api/client";

/** Query defaults: no polling, no refetch on focus, never stale, kept 5 minutes unused, no retries. */
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
