import { queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "@/lib/api/client";
import type { User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

const fetchOrNull = getQueryFn<User>({ on401: "returnNull" });

/** GET /api/auth/me: the signed-in user, or null when the server answers 401. */
export async function getMe(): Promise<User | null> {
  try {
    return await fetchOrNull({ queryKey: queryKeys.currentUser() });
  } catch (cause) {
    throw new Error("Failed to fetch user", { cause });
  }
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.currentUser(),
    queryFn: getMe,
    retry: false,
    staleTime: 5 * 60 * 1000,
    gcTime: 10 * 60 * 1000,
  });
}

/** The session: `user` is null when signed out; `isLoading` until the first answer. */
export function useUser() {
  const query = useQuery(meQueryOptions());
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: Boolean(query.data),
    error: query.error,
  };
}
