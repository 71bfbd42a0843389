import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { RegisterRequest, User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/auth/register */
export function register(body: RegisterRequest): Promise<User> {
  return dataOf(api.POST("/api/auth/register", { body }));
}

/** Creates an account; the server signs the new user in, so it becomes the session. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.currentUser(), user);
    },
  });
}
