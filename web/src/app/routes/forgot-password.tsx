import { AuthLayout } from "@/features/auth/components/auth-layout";
import { ForgotPasswordFooter, ForgotPasswordForm } from "@/features/auth/components/forgot-password-form";
import { usePageMeta } from "@/lib/page-meta";

export default function ForgotPasswordRoute() {
  usePageMeta("Forgot Password", "Ask for a link to choose a new password for your Strikeline account.");
  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter your account's email address and we will send you a link to choose a new one."
      footer={<ForgotPasswordFooter />}
    >
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
