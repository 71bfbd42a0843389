import { PageHeader } from "@/components/page-header";
import { SignalsPanel } from "@/features/signals/components/signals-panel";
import { usePageMeta } from "@/lib/page-meta";

export default function SignalsRoute() {
  usePageMeta("Trading Signals", "Every signal with its strike, expiry, strategy and confidence.");
  return (
    <div className="grid gap-6">
      <PageHeader title="Trading Signals" description="Every signal with its strike, expiry, strategy and confidence." />
      <SignalsPanel title="All Signals" />
    </div>
  );
}
