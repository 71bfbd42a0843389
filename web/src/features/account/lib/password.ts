import { z } from "zod";

/** Mirrors the server's rules for POST /api/user/password; the confirmation is checked here only. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: z.string().min(6, "Password must be at least 6 characters").max(128, "Password must be at most 128 characters"),
    confirmPassword: z.string(),
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });

export type PasswordChangeValues = z.infer<typeof passwordChangeSchema>;

export const EMPTY_PASSWORD_CHANGE: PasswordChangeValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** The fields the server's 422 may name. */
export const PASSWORD_FIELDS = ["currentPassword", "newPassword"] as const;
