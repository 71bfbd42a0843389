import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { FormField } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { safeNextPath, withNext } from "@/lib/redirect";
import { toast } from "@/lib/toast";
import { useRegister } from "../api/register";
import { type RegisterValues, registerSchema } from "../lib/schemas";
import { REDIRECT_DELAY_MS } from "./login-form";

const FIELDS = ["firstName", "lastName", "email", "username", "password"] as const;

export function RegisterForm() {
  const navigate = useNavigate();
  // A page that sent the visitor here (`?next=`, e.g. a paid plan on /pricing) is where they go afterwards.
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const registerMutation = useRegister();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: "", lastName: "", email: "", username: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    let email: string;
    try {
      ({ email } = await registerMutation.mutateAsync(values));
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      toast({
        variant: "destructive",
        title: "Registration Failed",
        description: errorMessage(error, "Please check your information and try again."),
      });
      return;
    }
    toast({
      title: "Account Created!",
      description: `We sent a link to ${email}: open it to confirm your address and start your 14-day Pro trial.`,
    });
    setTimeout(() => navigate(next, { replace: true }), REDIRECT_DELAY_MS);
  });

  const pending = registerMutation.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="firstName" label="First Name" error={errors.firstName?.message}>
          {(aria) => <Input autoComplete="given-name" placeholder="Ada" {...aria} {...register("firstName")} />}
        </FormField>
        <FormField id="lastName" label="Last Name" error={errors.lastName?.message}>
          {(aria) => <Input autoComplete="family-name" placeholder="Lovelace" {...aria} {...register("lastName")} />}
        </FormField>
      </div>
      <FormField id="email" label="Email" error={errors.email?.message}>
        {(aria) => <Input type="email" autoComplete="email" placeholder="you@example.com" {...aria} {...register("email")} />}
      </FormField>
      <FormField id="username" label="Username" error={errors.username?.message}>
        {(aria) => <Input autoComplete="username" placeholder="ada_trades" {...aria} {...register("username")} />}
      </FormField>
      <FormField id="password" label="Password" error={errors.password?.message} hint="At least 6 characters.">
        {(aria) => <PasswordInput autoComplete="new-password" placeholder="Create a password" {...aria} {...register("password")} />}
      </FormField>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={pending}>
        {pending ? "Creating Account..." : "Create Account"}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        By creating an account you agree to the{" "}
        <Link to="/terms" className="underline underline-offset-4 hover:text-foreground">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/privacy" className="underline underline-offset-4 hover:text-foreground">
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  );
}

export function RegisterFooter() {
  const [params] = useSearchParams();
  const nextParam = params.get("next");
  return (
    <>
      Already have an account?{" "}
      <Link
        to={nextParam ? withNext("/login", nextParam) : "/login"}
        className="font-medium text-primary underline-offset-4 hover:underline"
      >
        Sign in
      </Link>
    </>
  );
}
