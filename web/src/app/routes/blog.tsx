import { InfoPage } from "@/components/info-page";
import { BlogIndex } from "@/features/blog/components/blog-index";
import { NewsletterForm } from "@/features/contact/components/newsletter-form";
import { usePageMeta } from "@/lib/page-meta";

export default function BlogRoute() {
  usePageMeta(
    "Blog",
    "Options education, strategy notes, market analysis and risk management from the Strikeline team: the Greeks, volatility, earnings straddles and more.",
  );
  return (
    <InfoPage
      eyebrow="Blog"
      title="Strikeline Blog"
      description="Options education, strategy notes, market analysis and risk management."
      width="wide"
    >
      <BlogIndex newsletter={<NewsletterForm />} />
    </InfoPage>
  );
}
