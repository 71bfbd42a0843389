import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { LoginRequest, User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/auth/login */
export function login(body: LoginRequest): Promise<User> {
  return dataOf(api.POST("/api/auth/login", { body }));
}

/** Signs in and stores the user as the session. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.currentUser(), user);
    },
  });
}
