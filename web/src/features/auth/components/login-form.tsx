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
import { useLogin } from "../api/login";
import { type LoginValues, loginSchema } from "../lib/schemas";

const FIELDS = ["email", "password"] as const;
export const REDIRECT_DELAY_MS = 100;

export function LoginForm() {
  const navigate = useNavigate();
  // A page that sent the visitor here (`?next=`, e.g. a paid plan on /pricing) is where they go afterwards.
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("next"));
  const loginMutation = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await loginMutation.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      toast({
        variant: "destructive",
        title: "Login Failed",
        description: errorMessage(error, "Invalid email or password"),
      });
      return;
    }
    toast({ title: "Welcome back!", description: "You have successfully logged in." });
    setTimeout(() => navigate(next, { replace: true }), REDIRECT_DELAY_MS);
  });

  const pending = loginMutation.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <FormField id="email" label="Email" error={errors.email?.message}>
        {(aria) => <Input type="email" autoComplete="email" placeholder="you@example.com" {...aria} {...register("email")} />}
      </FormField>
      <FormField id="password" label="Password" error={errors.password?.message}>
        {(aria) => <PasswordInput autoComplete="current-password" placeholder="Your password" {...aria} {...register("password")} />}
      </FormField>
      <p className="-mt-2 text-right text-sm">
        <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </p>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={pending}>
        {pending ? "Signing In..." : "Sign In"}
      </Button>
    </form>
  );
}

export function LoginFooter() {
  const [params] = useSearchParams();
  const nextParam = params.get("next");
  return (
    <>
      Don&apos;t have an account?{" "}
      <Link
        to={nextParam ? withNext("/register", nextParam) : "/register"}
        className="font-medium text-primary underline-offset-4 hover:underline"
      >
        Sign up
      </Link>
    </>
  );
}
