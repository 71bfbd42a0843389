import { AuthLayout } from "@/features/auth/components/auth-layout";
import { RegisterFooter, RegisterForm } from "@/features/auth/components/register-form";
import { usePageMeta } from "@/lib/page-meta";

export default function RegisterRoute() {
  usePageMeta(
    "Create Your Account",
    "Create a Strikeline account. Confirm your email address to start a 14-day Pro trial, no credit card required.",
  );
  return (
    <AuthLayout
      title="Create your account"
      description="Confirm your email address to start a 14-day Pro trial. No credit card required."
      footer={<RegisterFooter />}
    >
      <RegisterForm />
    </AuthLayout>
  );
}
