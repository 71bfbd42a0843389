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
import {
  EMPTY_PASSWORD_CHANGE,
  PASSWORD_FIELDS,
  type PasswordChangeValues,
  passwordChangedText,
  passwordChangeSchema,
} from "../lib/password";

/**
 * Change Password: current, new and confirmation. The server's field errors (a wrong current
 * password, a short new one) show under their inputs. "Also switch off my API keys" (ticked by
 * default) is sent as `revokeApiKeys`; on success every other session of the account has ended,
 * and the form says whether the keys were switched off.
 */
export function ChangePasswordForm() {
  const id = useId();
  const mutation = useChangePassword();
  /** After a change: whether the API keys were switched off with it. */
  const [changed, setChanged] = useState<{ revokedApiKeys: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PasswordChangeValues>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY_PASSWORD_CHANGE });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword, revokeApiKeys }) => {
    setChanged(null);
    try {
      await mutation.mutateAsync({ currentPassword, newPassword, revokeApiKeys });
    } catch (error) {
      const placed = error instanceof ApiError && error.status === 422 && applyServerFieldErrors(error, setError, PASSWORD_FIELDS);
      if (!placed) toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to change password") });
      return;
    }
    reset(EMPTY_PASSWORD_CHANGE);
    setChanged({ revokedApiKeys: revokeApiKeys });
    toast({ title: "Password Changed", description: passwordChangedText(revokeApiKeys) });
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
          <div className="grid gap-1">
            <label htmlFor={f("revoke")} className="inline-flex w-fit cursor-pointer items-center gap-2 text-sm font-medium">
              <input
                id={f("revoke")}
                type="checkbox"
                className="size-4 rounded border-input accent-primary"
                aria-describedby={f("revoke-hint")}
                {...register("revokeApiKeys")}
              />
              Also switch off my API keys
            </label>
            <p id={f("revoke-hint")} className="pl-6 text-[0.8rem] text-muted-foreground">
              Programs using them stop working until you switch the keys on again. Leave ticked if the old password may be known to someone.
            </p>
          </div>
          {changed ? (
            <p role="status" className="inline-flex items-start gap-2 text-sm text-positive-strong">
              <CheckCircle2Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
              Password changed. {passwordChangedText(changed.revokedApiKeys)}
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
