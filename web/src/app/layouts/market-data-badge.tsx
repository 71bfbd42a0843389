import { FlaskConicalIcon } from "lucide-react";
import { Link } from "react-router";
import { usePublicStats } from "@/features/marketing/api/get-public-stats";

/** Where the badge leads: the help article on where Strikeline's prices come from. */
export const MARKET_DATA_HELP = "/help/platform-features/market-data";

/**
 * In the top bar of every signed-in page while the server's prices come from its seeded
 * simulated market (`marketData: "simulated"` in GET /api/public/stats, the query the public
 * pages already read): a badge that links to what that means. Nothing with Polygon.io
 * configured, nor while the figures load or fail (it never claims a source it has not read).
 * Under 640 px it reads "Simulated data"; its accessible name stays "Simulated market data".
 */
export function MarketDataBadge() {
  const { data } = usePublicStats();
  if (data?.marketData !== "simulated") return null;
  return (
    <Link
      to={MARKET_DATA_HELP}
      data-testid="market-data-badge"
      title="Prices come from Strikeline's simulated market, not an exchange"
      className="inline-flex shrink-0 items-center gap-1 rounded-full border border-amber-600/40 bg-amber-500/10 px-2 py-1 text-xs font-semibold whitespace-nowrap text-amber-800 outline-none hover:bg-amber-500/20 focus-visible:ring-2 focus-visible:ring-ring dark:border-amber-400/40 dark:text-amber-300"
    >
      <FlaskConicalIcon className="hidden size-3.5 shrink-0 sm:block" aria-hidden />
      <span>
        Simulated<span className="sr-only sm:not-sr-only"> market</span> data
      </span>
    </Link>
  );
}
