import { InfoPage } from "@/components/info-page";
import { HelpContactForm } from "@/features/contact/components/help-contact-form";
import { HelpCenter } from "@/features/help/components/help-center";
import { usePublicStats } from "@/features/marketing/api/get-public-stats";
import { freshnessSentence } from "@/features/marketing/lib/figures";
import { usePageMeta } from "@/lib/page-meta";

export default function HelpRoute() {
  usePageMeta(
    "Help Center",
    "Answers about signals, portfolios, backtests, and your account and billing. Search the help articles or contact support.",
  );
  const { data: stats } = usePublicStats();
  return (
    <InfoPage
      eyebrow="Support"
      title="Help Center"
      description="Answers about signals, portfolios, backtests, and your account and billing."
      width="wide"
    >
      <HelpCenter freshness={stats ? freshnessSentence(stats) : null} contactForm={<HelpContactForm />} />
    </InfoPage>
  );
}
