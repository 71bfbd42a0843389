import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import type { components } from "@/lib/api/schema";
import { meQueryKey, type User } from "./get-me";

export type LoginRequest = components["schemas"]["LoginRequest"];

/** POST /api/auth/login */
export function login(body: LoginRequest): Promise<User> {
  return apiJson<User>("POST", "/api/auth/login", body);
}

/** Signs in and stores the user as the session. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
