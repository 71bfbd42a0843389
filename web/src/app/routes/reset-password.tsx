import { ResetPasswordScreen } from "@/features/auth/components/reset-password-form";
import { usePageMeta } from "@/lib/page-meta";

export default function ResetPasswordRoute() {
  usePageMeta("Reset Password", "Choose a new password for your Strikeline account.");
  return <ResetPasswordScreen />;
}
