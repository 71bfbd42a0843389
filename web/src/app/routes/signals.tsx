import { CrownIcon } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useUser } from "@/features/auth/api/get-me";
import { SignalBrowser } from "@/features/signals/components/signal-browser";
import { type FilterState, filtersFromSearch, filtersToSearch } from "@/features/signals/lib/filters";
import { usePageMeta } from "@/lib/page-meta";

/**
 * The signals page lists 12 per page (the dashboard lists 4): 12 fills whole rows of
 * the one-, two- and three-column grids.
 */
export const SIGNALS_PAGE_SIZE = 12;

const fetchErrorText = () => "Failed to fetch signals";

export default function SignalsRoute() {
  usePageMeta("Trading Signals", "Every signal with its strike, expiry, strategy and strength.");
  const { user } = useUser();
  // The filters live in the URL, so a filtered list can be bookmarked and shared.
  const [params, setParams] = useSearchParams();
  const filters = filtersFromSearch(params);
  const onFiltersChange = (next: FilterState) => setParams(filtersToSearch(next), { replace: true });
  const upgrade = !user || user.subscriptionPlan === "free" || user.subscriptionStatus === "trialing";

  return (
    // One shrinkable column: wide tables scroll inside their cards instead of widening the page.
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Trading Signals"
        description="Every signal with its strike, expiry, strategy and strength."
        actions={
          upgrade ? (
            <Button asChild variant="outline">
              <Link to="/pricing">
                <CrownIcon aria-hidden />
                Upgrade to Pro
              </Link>
            </Button>
          ) : null
        }
      />
      <SignalBrowser
        title="All Signals"
        filters={filters}
        onFiltersChange={onFiltersChange}
        pageSize={SIGNALS_PAGE_SIZE}
        skeletons={6}
        fetchErrorText={fetchErrorText}
        gridClassName="md:grid-cols-2 xl:grid-cols-3"
      />
    </div>
  );
}
