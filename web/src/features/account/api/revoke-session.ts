import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { SessionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** DELETE /api/user/sessions/{id} → 204: that browser is signed out. */
export async function revokeSession(id: string): Promise<void> {
  await api.DELETE("/api/user/sessions/{id}", { params: { path: { id } } });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<SessionView[]>(queryKeys.sessions(), (sessions) => sessions?.filter((s) => s.id !== id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditLog() });
    },
  });
}
