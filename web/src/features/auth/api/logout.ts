import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { meQueryKey } from "./get-me";

/** POST /api/auth/logout */
export async function logout(): Promise<void> {
  await api.POST("/api/auth/logout");
}

/** Signs out, then forgets the user and every cached answer. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.setQueryData(meQueryKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
      queryClient.getMutationCache().clear();
    },
  });
}
