import { VerifyEmailScreen } from "@/features/auth/components/verify-email";
import { usePageMeta } from "@/lib/page-meta";

export default function VerifyEmailRoute() {
  usePageMeta("Confirm Your Email", "Confirm the email address of your Strikeline account.");
  return <VerifyEmailScreen />;
}
