import { z } from "zod";

/** Mirrors the server's validation of POST /api/auth/login. */
export const loginSchema = z.object({
  email: z.string().trim().pipe(z.email("Invalid email address")),
  password: z.string().min(6, "Password must be at least 6 characters"),
});
export type LoginValues = z.infer<typeof loginSchema>;

/** Mirrors the server's validation of POST /api/auth/register. */
export const registerSchema = z.object({
  firstName: z.string().trim(),
  lastName: z.string().trim(),
  email: z.string().trim().pipe(z.email("Invalid email address")),
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(32, "Username must be at most 32 characters")
    .regex(/^[A-Za-z0-9._-]*$/, "Username may only contain letters, digits, '.', '_' or '-'"),
  password: z.string().min(6, "Password must be at least 6 characters"),
});
export type RegisterValues = z.infer<typeof registerSchema>;

/** Mirrors the server's validation of POST /api/auth/forgot-password. */
export const forgotPasswordSchema = z.object({
  email: z.string().trim().pipe(z.email("Invalid email address")),
});
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

/** Mirrors the server's rules for POST /api/auth/reset-password; the confirmation is checked here only. */
export const resetPasswordSchema = z
  .object({
    newPassword: z.string().min(6, "Password must be at least 6 characters").max(128, "Password must be at most 128 characters"),
    confirmPassword: z.string(),
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;
