import { NewspaperIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { usePageMeta } from "@/lib/page-meta";

export default function NewsRoute() {
  usePageMeta("Market News & AI Analysis", "Headlines on the stocks we cover, with sentiment and an AI read on the trade.");
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Market News & AI Analysis"
        description="Headlines on the stocks we cover, with sentiment and an AI read on the trade."
      />
      <EmptyState icon={NewspaperIcon} title="No news available" description="There are no articles to show right now." />
    </div>
  );
}
