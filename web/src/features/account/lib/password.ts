import { z } from "zod";

/** Mirrors the server's rules for POST /api/user/password; the confirmation is checked here only. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: z.string().min(6, "Password must be at least 6 characters").max(128, "Password must be at most 128 characters"),
    confirmPassword: z.string(),
    /** Sent as `revokeApiKeys`: the server switches every key off unless told not to. */
    revokeApiKeys: z.boolean(),
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });

export type PasswordChangeValues = z.infer<typeof passwordChangeSchema>;

export const EMPTY_PASSWORD_CHANGE: PasswordChangeValues = {
  currentPassword: "",
  newPassword: "",
  confirmPassword: "",
  revokeApiKeys: true,
};

/** What the toast and the status line say after a change. */
export function passwordChangedText(revokedApiKeys: boolean): string {
  return revokedApiKeys
    ? "Other sessions were signed out and your API keys were switched off."
    : "Other sessions were signed out. Your API keys still work.";
}

/** The fields the server's 422 may name. */
export const PASSWORD_FIELDS = ["currentPassword", "newPassword"] as const;
