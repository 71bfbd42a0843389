import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2Icon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { ApiError, errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useChangePassword } from "../api/change-password";
import { EMPTY_PASSWORD_CHANGE, PASSWORD_FIELDS, type PasswordChangeValues, passwordChangeSchema } from "../lib/password";

/**
 * Change Password: current, new and confirmation. The server's field errors (a wrong current
 * password, a short new one) show under their inputs; on success every other session of the
 * account has ended, which the form says.
 */
export function ChangePasswordForm() {
  const id = useId();
  const mutation = useChangePassword();
  const [changed, setChanged] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PasswordChangeValues>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY_PASSWORD_CHANGE });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setChanged(false);
    try {
      await mutation.mutateAsync({ currentPassword, newPassword });
    } catch (error) {
      const placed = error instanceof ApiError && error.status === 422 && applyServerFieldErrors(error, setError, PASSWORD_FIELDS);
      if (!placed) toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to change password") });
      return;
    }
    reset(EMPTY_PASSWORD_CHANGE);
    setChanged(true);
    toast({ title: "Password Changed", description: "Your other sessions were signed out." });
  });

  const f = (name: string) => `${id}-${name}`;
  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby={f("title")}>
        <CardHeader className="border-b pb-4">
          <CardTitle id={f("title")}>Change Password</CardTitle>
          <CardDescription>Changing it signs out every other browser and device.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 pt-5 sm:max-w-md">
          <FormField id={f("current")} label="Current password" error={errors.currentPassword?.message}>
            {(aria) => <PasswordInput autoComplete="current-password" {...aria} {...register("currentPassword")} />}
          </FormField>
          <FormField id={f("new")} label="New password" error={errors.newPassword?.message} hint="At least 6 characters.">
            {(aria) => <PasswordInput autoComplete="new-password" {...aria} {...register("newPassword")} />}
          </FormField>
          <FormField id={f("confirm")} label="Confirm new password" error={errors.confirmPassword?.message}>
            {(aria) => <PasswordInput autoComplete="new-password" {...aria} {...register("confirmPassword")} />}
          </FormField>
          {changed ? (
            <p role="status" className="inline-flex items-center gap-2 text-sm text-positive-strong">
              <CheckCircle2Icon className="size-4 shrink-0" aria-hidden />
              Password changed. Other sessions were signed out.
            </p>
          ) : null}
        </CardContent>
        <CardFooter className="border-t pt-5">
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? "Changing..." : "Change Password"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
