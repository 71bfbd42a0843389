import { ExternalLinkIcon, FlaskConicalIcon, LineChartIcon } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { Skeleton } from "@/components/ui/skeleton";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { NewsItem, NewsOrigin, NewsSentiment } from "@/lib/api/models";
import { formatDateTime, timeAgo } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { formatSentimentScore, ORIGIN_BADGE, safeExternalUrl, SENTIMENT_LABEL } from "../lib/news";
import { LockedAnalysis, NewsAnalysisBlock } from "./news-analysis";

const pill = "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap";

const SENTIMENT_CLASS: Record<NewsSentiment, string> = {
  bullish: "bg-positive/12 text-positive-strong",
  bearish: "bg-destructive/12 text-destructive-strong",
  neutral: "bg-muted text-muted-foreground",
};

/** Bullish (green), Bearish (red) or Neutral (grey), with the score from -1 to 1. */
function SentimentBadge({ sentiment, score }: { sentiment: NewsSentiment; score: number }) {
  return (
    <span
      data-testid="sentiment-badge"
      data-sentiment={sentiment}
      className={cn(pill, SENTIMENT_CLASS[sentiment] ?? SENTIMENT_CLASS.neutral)}
    >
      <span className="sr-only">Sentiment: </span>
      {SENTIMENT_LABEL[sentiment] ?? sentiment}
      <span className="font-medium tabular">
        <span className="sr-only">, score </span>
        {formatSentimentScore(score)}
      </span>
    </span>
  );
}

/** "Sample" or "Market note", with a tooltip (on hover and on focus) saying what that means. */
function OriginBadge({ origin }: { origin: NewsOrigin }) {
  const badge = ORIGIN_BADGE[origin];
  if (!badge) return null;
  const Icon = origin === "sample" ? FlaskConicalIcon : LineChartIcon;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          data-testid="origin-badge"
          className={cn(
            pill,
            "cursor-help border border-amber-600/35 bg-amber-500/10 text-amber-800 outline-none focus-visible:ring-2 focus-visible:ring-ring dark:border-amber-400/35 dark:text-amber-200",
          )}
        >
          <Icon className="size-3" aria-hidden />
          {badge.label}
        </button>
      </TooltipTrigger>
      <TooltipContent>{badge.hint}</TooltipContent>
    </Tooltip>
  );
}

const symbolLink =
  "rounded-md bg-primary/10 px-1.5 py-0.5 font-mono text-xs font-semibold text-primary-strong outline-none hover:bg-primary/15 focus-visible:ring-2 focus-visible:ring-ring";

/** The stock an article is about (a link to its signals), its company, and the other stocks it names. */
function Symbols({ item }: { item: NewsItem }) {
  const [main, ...others] = item.symbol ? [item.symbol, ...item.symbols.filter((s) => s !== item.symbol)] : item.symbols;
  if (!main) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <Link to={`/signals?symbol=${encodeURIComponent(main)}`} className={symbolLink} data-testid="news-symbol">
        {main}
        <span className="sr-only"> signals</span>
      </Link>
      {item.companyName ? <span className="min-w-0 text-muted-foreground">{item.companyName}</span> : null}
      {others.length > 0 ? (
        <span className="inline-flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
          Also
          {others.map((symbol) => (
            <Link key={symbol} to={`/signals?symbol=${encodeURIComponent(symbol)}`} className={symbolLink}>
              {symbol}
              <span className="sr-only"> signals</span>
            </Link>
          ))}
        </span>
      ) : null}
    </div>
  );
}

/** One article: badges, headline, stock, picture (hidden when it fails), summary, link, analysis. */
export function NewsCard({ item, now }: { item: NewsItem; now: number }) {
  const titleId = useId();
  const [imageFailed, setImageFailed] = useState(false);
  const articleUrl = safeExternalUrl(item.articleUrl);
  const imageUrl = safeExternalUrl(item.imageUrl);
  return (
    <article
      aria-labelledby={titleId}
      data-testid="news-card"
      className="flex h-full flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs"
    >
      {imageUrl && !imageFailed ? (
        <img
          src={imageUrl}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setImageFailed(true)}
          className="h-44 w-full border-b bg-muted object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
          <OriginBadge origin={item.origin} />
          <SentimentBadge sentiment={item.sentiment} score={item.sentimentScore} />
          <p className="text-xs text-muted-foreground">
            {item.source}
            <span aria-hidden> · </span>
            <span className="sr-only">, </span>
            <time dateTime={item.publishedAt} title={formatDateTime(item.publishedAt)}>
              {timeAgo(item.publishedAt, now)}
            </time>
          </p>
        </div>
        <h2 id={titleId} className="text-base leading-snug font-semibold text-balance">
          {item.title}
        </h2>
        <Symbols item={item} />
        <p className="text-sm leading-relaxed text-muted-foreground">{item.summary}</p>
        {articleUrl ? (
          <a
            href={articleUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-primary-strong underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            Read article
            <ExternalLinkIcon className="size-3.5" aria-hidden />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
        <div className="mt-auto pt-1">
          {item.aiAnalysis ? <NewsAnalysisBlock analysis={item.aiAnalysis} /> : item.analysisLocked ? <LockedAnalysis /> : null}
        </div>
      </div>
    </article>
  );
}

/** A card's shape while the list loads. */
export function NewsCardSkeleton() {
  return (
    <div data-testid="news-skeleton" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:p-5">
      <div className="flex gap-2">
        <Skeleton className="h-5 w-20 rounded-full" />
        <Skeleton className="h-5 w-28" />
      </div>
      <Skeleton className="h-5 w-11/12" />
      <Skeleton className="h-5 w-16" />
      <div className="grid gap-1.5">
        <Skeleton className="h-3.5 w-full" />
        <Skeleton className="h-3.5 w-full" />
        <Skeleton className="h-3.5 w-2/3" />
      </div>
      <Skeleton className="h-28 w-full rounded-lg" />
    </div>
  );
}
