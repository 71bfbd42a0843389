import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2Icon, CircleAlertIcon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { FormField } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { ApiError, errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useResetPassword } from "../api/reset-password";
import { type ResetPasswordValues, resetPasswordSchema } from "../lib/schemas";
import { AuthLayout } from "./auth-layout";

const FIELDS = ["newPassword"] as const;
const EMPTY: ResetPasswordValues = { newPassword: "", confirmPassword: "" };
const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** What a link with no token says. */
export const INCOMPLETE_RESET_LINK = "This link is incomplete. Open the link in the email again, or ask for a new one.";

/** The message the server's 422 gives about `token`, if it names it. */
function tokenProblem(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  return error.fieldErrors.find((e) => e.field === "token")?.message ?? null;
}

function SignInFooter() {
  return (
    <>
      Remembered it?{" "}
      <Link to="/login" className={linkClass}>
        Back to sign in
      </Link>
    </>
  );
}

/**
 * /reset-password?token=…: a new password and its confirmation. A link that no longer works
 * (422 naming `token`) is shown above the form with a way to ask for a new one; a password the
 * server refuses goes under its field. On success every session has ended (this one too) and
 * the API keys are off, which the page says, with a link to sign in.
 */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const mutation = useResetPassword();
  const [linkError, setLinkError] = useState<string | null>(token ? null : INCOMPLETE_RESET_LINK);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordValues>({ resolver: zodResolver(resetPasswordSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    if (!token) return;
    setLinkError(null);
    try {
      await mutation.mutateAsync({ token, newPassword });
    } catch (error) {
      const problem = tokenProblem(error);
      if (problem) {
        setLinkError(problem);
        return;
      }
      const placed = error instanceof ApiError && error.status === 422 && applyServerFieldErrors(error, setError, FIELDS);
      if (!placed) {
        toast({ variant: "destructive", title: "Password Not Changed", description: errorMessage(error, "Please try again.") });
      }
    }
  });

  if (mutation.isSuccess) {
    return (
      <AuthLayout title="Password changed" description="Sign in with your new password." footer={null}>
        <div role="status" className="grid gap-3 rounded-lg border bg-card p-4 text-sm shadow-xs">
          <p className="flex items-start gap-2.5 font-medium">
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
            Your password was changed.
          </p>
          <p className="text-muted-foreground">
            Every session of your account was signed out, on every device, and your API keys were switched off. After signing in, switch
            them on again or create new ones in Settings › API Keys.
          </p>
        </div>
        <Button asChild size="lg" className="mt-6 w-full">
          <Link to="/login">Sign in</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      description="Setting it signs you out everywhere and switches off your API keys."
      footer={<SignInFooter />}
    >
      {linkError ? (
        <div
          role="alert"
          data-testid="reset-link-problem"
          className="mb-6 flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          <p>
            {linkError}{" "}
            <Link to="/forgot-password" className="font-medium text-primary-strong underline underline-offset-4">
              Ask for a new link
            </Link>
          </p>
        </div>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
        <FormField id="new-password" label="New password" error={errors.newPassword?.message} hint="At least 6 characters.">
          {(aria) => <PasswordInput autoComplete="new-password" {...aria} {...register("newPassword")} />}
        </FormField>
        <FormField id="confirm-password" label="Confirm new password" error={errors.confirmPassword?.message}>
          {(aria) => <PasswordInput autoComplete="new-password" {...aria} {...register("confirmPassword")} />}
        </FormField>
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={mutation.isPending || !token}>
          {mutation.isPending ? "Saving..." : "Set New Password"}
        </Button>
      </form>
    </AuthLayout>
  );
}
