import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheckIcon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useForgotPassword } from "../api/forgot-password";
import { type ForgotPasswordValues, forgotPasswordSchema } from "../lib/schemas";

const FIELDS = ["email"] as const;
const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/**
 * /forgot-password: an email address, then the server's answer, which is the same whether or
 * not an account has the address (so the page never tells). A malformed address (422) goes
 * under the field; too many requests (429) and other failures are toasted with the server's words.
 */
export function ForgotPasswordForm() {
  const mutation = useForgotPassword();
  const [answer, setAnswer] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { message } = await mutation.mutateAsync(values);
      setAnswer(message);
    } catch (error) {
      const placed = error instanceof ApiError && error.status === 422 && applyServerFieldErrors(error, setError, FIELDS);
      if (!placed) {
        toast({
          variant: "destructive",
          title: error instanceof ApiError && error.status === 429 ? "Too Many Requests" : "Link Not Sent",
          description: errorMessage(error, "The request could not be sent. Please try again."),
        });
      }
    }
  });

  if (answer) {
    return (
      <div className="grid gap-6">
        <div role="status" className="flex gap-3 rounded-lg border bg-card p-4 text-sm shadow-xs">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <p>{answer}</p>
        </div>
        <p className="text-sm text-muted-foreground">
          No email after a few minutes? Check your spam folder, or{" "}
          <button type="button" className={linkClass} onClick={() => setAnswer(null)}>
            try another address
          </button>
          .
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
      <FormField id="email" label="Email" error={errors.email?.message}>
        {(aria) => <Input type="email" autoComplete="email" placeholder="you@example.com" {...aria} {...register("email")} />}
      </FormField>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={mutation.isPending}>
        {mutation.isPending ? "Sending..." : "Send Reset Link"}
      </Button>
    </form>
  );
}

export function ForgotPasswordFooter() {
  return (
    <>
      Remembered it?{" "}
      <Link to="/login" className={linkClass}>
        Back to sign in
      </Link>
    </>
  );
}
