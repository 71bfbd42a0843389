import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import type { components } from "@/lib/api/schema";
import { meQueryKey, type User } from "./get-me";

export type RegisterRequest = components["schemas"]["RegisterRequest"];

/** POST /api/auth/register */
export function register(body: RegisterRequest): Promise<User> {
  return apiJson<User>("POST", "/api/auth/register", body);
}

/** Creates an account; the server signs the new user in, so it becomes the session. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
