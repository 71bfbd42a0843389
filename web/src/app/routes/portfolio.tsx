import { PortfolioPage } from "@/features/portfolio/components/portfolio-page";
import { usePageMeta } from "@/lib/page-meta";

export default function PortfolioRoute() {
  usePageMeta("Portfolio Analysis", "Performance and risk across automated and manual positions.");
  return <PortfolioPage />;
}
