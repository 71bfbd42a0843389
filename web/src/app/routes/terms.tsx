import { COMPANY } from "@/content/company";
import { legalDocument } from "@/content/legal";
import { LegalPage } from "@/features/legal/components/legal-page";

export default function TermsRoute() {
  return <LegalPage doc={legalDocument("terms")} eyebrow="Legal" email={COMPANY.email.legal} />;
}
