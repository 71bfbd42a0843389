import { InfoPage } from "@/components/info-page";
import { CareersPage } from "@/features/careers/components/careers-page";
import { usePageMeta } from "@/lib/page-meta";

export default function CareersRoute() {
  usePageMeta(
    "Careers",
    "Open positions at Strikeline in engineering, AI/ML, research, product and sales, with pay ranges, benefits and how we work.",
  );
  return (
    <InfoPage
      eyebrow="Careers"
      title="Careers at Strikeline"
      description="Engineers, researchers and product people building trading tools for individual investors."
      width="wide"
    >
      <CareersPage />
    </InfoPage>
  );
}
