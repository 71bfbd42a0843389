import { COMPANY } from "@/content/company";
import { legalDocument } from "@/content/legal";
import { LegalPage } from "@/features/legal/components/legal-page";

export default function PrivacyRoute() {
  return <LegalPage doc={legalDocument("privacy")} eyebrow="Legal" email={COMPANY.email.privacy} />;
}
