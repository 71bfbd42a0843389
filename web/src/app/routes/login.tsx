import { AuthLayout } from "@/features/auth/components/auth-layout";
import { LoginFooter, LoginForm } from "@/features/auth/components/login-form";
import { usePageMeta } from "@/lib/page-meta";

export default function LoginRoute() {
  usePageMeta("Sign In", "Sign in to Strikeline to open your dashboard, signals and portfolio.");
  return (
    <AuthLayout title="Sign in to Strikeline" description="Enter your email and password to open your dashboard." footer={<LoginFooter />}>
      <LoginForm />
    </AuthLayout>
  );
}
