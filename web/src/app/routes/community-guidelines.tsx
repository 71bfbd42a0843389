import { COMPANY } from "@/content/company";
import { legalDocument } from "@/content/legal";
import { LegalPage } from "@/features/legal/components/legal-page";

export default function CommunityGuidelinesRoute() {
  return <LegalPage doc={legalDocument("community-guidelines")} eyebrow="Community" email={COMPANY.email.support} />;
}
