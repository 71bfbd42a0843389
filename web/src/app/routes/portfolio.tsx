import { useUser } from "@/features/auth/api/get-me";
import { includesPortfolioOptimisation } from "@/features/auth/lib/plan";
import { OrdersCard } from "@/features/orders/components/orders-card";
import { PortfolioPage } from "@/features/portfolio/components/portfolio-page";
import { usePageMeta } from "@/lib/page-meta";

/** /portfolio: the portfolio page, with the orders card (the orders feature) below the automated positions. */
export default function PortfolioRoute() {
  usePageMeta("Portfolio Analysis", "Performance and risk across automated and manual positions.");
  const { user } = useUser();
  return <PortfolioPage optimiser={user ? includesPortfolioOptimisation(user) : false} orders={<OrdersCard />} />;
}
