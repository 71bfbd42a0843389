import { CrownIcon, NewspaperIcon, RefreshCwIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { FilterChips } from "@/components/filter-chips";
import { PageHeader } from "@/components/page-header";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useNews } from "../api/get-news";
import {
  DEFAULT_NEWS_COUNT,
  filterBySentiment,
  NEWS_COUNTS,
  type NewsCount,
  parseNewsCount,
  parseSentimentFilter,
  SENTIMENT_FILTERS,
  SENTIMENT_LABEL,
  type SentimentFilter,
  sentimentCounts,
  sentimentScope,
} from "../lib/news";
import { NewsCard, NewsCardSkeleton } from "./news-card";

/** 4 card skeletons while the news loads. */
export const NEWS_SKELETONS = 4;

export const NEWS_TITLE = "Market News & AI Analysis";
export const NEWS_DESCRIPTION = "Headlines on the stocks we cover, with sentiment and an AI read on the trade.";

/** The news could not be read: toasted under "Error" and shown on the page. */
export const FETCH_NEWS_FAILED = "Failed to fetch news";

/** The time "5 minutes ago" is counted from, moved on every minute. */
function useNow(tickMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}

/** Toasts "Error" with 'Failed to fetch news' once for each failed fetch. */
function useFetchErrorToast(isError: boolean, errorUpdatedAt: number) {
  const shown = useRef(0);
  useEffect(() => {
    if (isError && errorUpdatedAt !== shown.current) {
      shown.current = errorUpdatedAt;
      toast({ variant: "destructive", title: "Error", description: FETCH_NEWS_FAILED });
    }
  }, [isError, errorUpdatedAt]);
}

/**
 * /news: the newest articles with their sentiment and, on Pro and up, the
 * AI analysis. The sentiment filter works on the list already fetched; the count asks the server
 * for that many. Both are kept in the URL (`/news?sentiment=bearish&count=20`).
 */
export function NewsPage() {
  const [params, setParams] = useSearchParams();
  const count = parseNewsCount(params.get("count"));
  const sentiment = parseSentimentFilter(params.get("sentiment"));
  const query = useNews(count);
  const now = useNow();
  useFetchErrorToast(query.isError, query.errorUpdatedAt);

  const items = query.data ?? [];
  const counts = sentimentCounts(items);
  const shown = filterBySentiment(items, sentiment);
  const locked = items.some((item) => item.analysisLocked);
  // A list for another count is on screen while this one loads.
  const switching = query.isPlaceholderData;
  // The counts are of the articles loaded, not of all the news: the label says so.
  const sentimentLabel = query.isPending ? "Sentiment" : sentimentScope(items.length);

  const update = (next: { count?: NewsCount; sentiment?: SentimentFilter }) => {
    const nextCount = next.count ?? count;
    const nextSentiment = next.sentiment ?? sentiment;
    const search = new URLSearchParams();
    if (nextSentiment !== "all") search.set("sentiment", nextSentiment);
    if (nextCount !== DEFAULT_NEWS_COUNT) search.set("count", String(nextCount));
    setParams(search, { replace: true });
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title={NEWS_TITLE}
        description={NEWS_DESCRIPTION}
        actions={
          <>
            <Button
              variant="outline"
              onClick={() => void query.refetch()}
              disabled={query.isFetching}
              aria-busy={query.isFetching || undefined}
            >
              <RefreshCwIcon aria-hidden className={cn(query.isFetching && "animate-spin motion-reduce:animate-none")} />
              Refresh
            </Button>
            {locked ? (
              <Button asChild>
                <Link to="/pricing">
                  <CrownIcon aria-hidden />
                  Upgrade
                </Link>
              </Button>
            ) : null}
          </>
        }
      />

      <div className="flex flex-col gap-3 rounded-xl border bg-card p-3 shadow-xs sm:p-4 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
          <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase" aria-hidden data-testid="sentiment-scope">
            {sentimentLabel}
          </span>
          <FilterChips
            label={sentimentLabel}
            options={SENTIMENT_FILTERS.map((value) => ({
              value,
              label: SENTIMENT_LABEL[value],
              count: query.isPending ? undefined : counts[value],
            }))}
            value={sentiment}
            onChange={(value) => update({ sentiment: value })}
          />
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
          <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase" aria-hidden>
            Articles
          </span>
          <FilterChips
            label="Articles to load"
            options={NEWS_COUNTS.map((value) => ({ value: String(value), label: String(value) }))}
            value={String(count)}
            onChange={(value) => update({ count: parseNewsCount(value) })}
          />
        </div>
      </div>

      <section aria-label="Articles" aria-busy={query.isPending || switching || undefined} className="grid gap-3">
        <QueryState
          query={query}
          loadingLabel="Loading news"
          skeleton={
            <div className="grid gap-4 lg:grid-cols-2">
              {Array.from({ length: NEWS_SKELETONS }, (_, i) => (
                <NewsCardSkeleton key={i} />
              ))}
            </div>
          }
          errorTitle={FETCH_NEWS_FAILED}
          errorLayout="banner"
          staleData="show"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={NewspaperIcon}
              title="No news available"
              description="There are no articles to show right now. New ones appear as they arrive."
            />
          }
        >
          {() => (
            <>
              <p role="status" className="text-sm text-muted-foreground">
                {sentiment === "all"
                  ? `Showing the latest ${items.length} ${items.length === 1 ? "article" : "articles"}`
                  : `Showing ${shown.length} ${SENTIMENT_LABEL[sentiment].toLowerCase()} of the latest ${items.length} ${items.length === 1 ? "article" : "articles"}`}
              </p>
              {shown.length === 0 ? (
                <EmptyState
                  icon={NewspaperIcon}
                  title="No news available"
                  description={`None of the latest ${items.length} articles is ${SENTIMENT_LABEL[sentiment].toLowerCase()}.`}
                  action={
                    <Button variant="outline" size="sm" onClick={() => update({ sentiment: "all" })}>
                      Show all articles
                    </Button>
                  }
                />
              ) : (
                <ul className={cn("grid gap-4 transition-opacity lg:grid-cols-2", switching && "opacity-60")}>
                  {shown.map((item) => (
                    <li key={item.id} className="min-w-0">
                      <NewsCard item={item} now={now} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryState>
      </section>
    </div>
  );
}
