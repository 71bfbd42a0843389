import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { HistoryIcon, Loader2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api/client";
import type { SignalPage } from "@/lib/api/models";
import { toast } from "@/lib/toast";

type LoadOlderSignalsProps = {
  /** The paged signals query (`useSignals` or `signalsQueryOptions`). */
  query: Pick<UseInfiniteQueryResult<InfiniteData<SignalPage>>, "hasNextPage" | "isFetchingNextPage" | "fetchNextPage">;
  /** How many signals are loaded now: the first older one will be at this index. */
  loaded: number;
  /** Called once the older page has arrived, with the index of its first signal. */
  onLoaded?: (firstNewIndex: number) => void;
  /** While the list shows another filter's signals (placeholder data). */
  disabled?: boolean;
};

/**
 * "Load older signals": fetches the next page through the server's cursor. Shown only while
 * there is a next page; disabled and busy while it loads; a failure toasts and leaves the
 * button to try again.
 */
export function LoadOlderSignals({ query, loaded, onLoaded, disabled = false }: LoadOlderSignalsProps) {
  if (!query.hasNextPage) return null;
  const pending = query.isFetchingNextPage;

  const onClick = async () => {
    const result = await query.fetchNextPage();
    if (result.isError) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(result.error, "Failed to load older signals") });
      return;
    }
    onLoaded?.(loaded);
  };

  return (
    <div className="flex justify-center">
      <Button variant="outline" size="sm" onClick={() => void onClick()} disabled={disabled || pending} aria-busy={pending || undefined}>
        {pending ? <Loader2Icon aria-hidden className="animate-spin motion-reduce:animate-none" /> : <HistoryIcon aria-hidden />}
        {pending ? "Loading older signals..." : "Load older signals"}
      </Button>
    </div>
  );
}
