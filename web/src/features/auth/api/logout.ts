import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { queryKeys } from "@/lib/query-keys";

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
      queryClient.setQueryData(queryKeys.currentUser(), null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser()[0] });
      queryClient.getMutationCache().clear();
    },
  });
}
