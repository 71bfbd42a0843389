import type { ReactNode } from "react";
import { DownloadButton } from "@/components/download-button";
import { PageHeader } from "@/components/page-header";
import { api } from "@/lib/api/client";
import { AutomatedPositionsTable } from "./automated-positions-table";
import { HeldStructures } from "./held-structures";
import { ManualPositions } from "./manual-positions";
import { OptimiserCard } from "./optimiser-card";
import { PortfolioAnalysis } from "./portfolio-analysis";

/**
 * /portfolio: the analysis (summary, value chart, risk, metrics, statistics), the automated
 * positions table, the user's manual positions and the multi-leg positions saved from the
 * strategy builder. Figures and positions refetch every 30 s. "Download report" saves the same
 * figures as a PDF in the account's brand (GET /api/portfolio/report). Below the analysis, the
 * optimiser (Premium; locked when `optimiser` is false) proposes positions within the risk limits.
 * `orders` (the orders feature's card, composed in src/app) goes below the automated positions:
 * the orders the automation or the optimiser's "Send as orders" sent, which opened them.
 */
export function PortfolioPage({ optimiser = false, orders }: { optimiser?: boolean; orders?: ReactNode }) {
  return (
    // One shrinkable column: the wide table scrolls inside its card instead of widening the page.
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Portfolio Analysis"
        description="Performance and risk across positions opened from signals and the contracts you add yourself."
        actions={
          <DownloadButton
            label="Download report"
            request={() => api.GET("/api/portfolio/report", { parseAs: "blob" })}
            fallbackName="portfolio-report.pdf"
            testId="download-portfolio-report"
          />
        }
      />
      <PortfolioAnalysis />
      <OptimiserCard unlocked={optimiser} />
      <AutomatedPositionsTable />
      {orders}
      <ManualPositions />
      <HeldStructures />
    </div>
  );
}
