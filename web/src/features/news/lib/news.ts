import { isOneOf, NEWS_SENTIMENTS } from "@/lib/api/enums";
import type { AnalysisRisk, NewsItem, NewsOrigin, NewsSentiment, TradeIdea } from "@/lib/api/models";
import type { operations } from "@/lib/api/schema";

/** How many articles the page can ask for: the counts the server's document allows (5, 20, 25 or 100), 5 by default. */
export type NewsCount = NonNullable<NonNullable<operations["list_news"]["parameters"]["query"]>["count"]>;
/** Every count, in order; the compiler checks the list against the document's enum both ways. */
export const NEWS_COUNTS = [5, 20, 25, 100] as const satisfies readonly NewsCount[];
type EveryCountListed = NewsCount extends (typeof NEWS_COUNTS)[number] ? true : false;
export const NEWS_COUNTS_COMPLETE: EveryCountListed = true;
export const DEFAULT_NEWS_COUNT: NewsCount = 5;

/** The sentiment filter: every article, or one sentiment; it filters the fetched list in the browser. */
export type SentimentFilter = "all" | NewsSentiment;
export const SENTIMENT_FILTERS: readonly SentimentFilter[] = ["all", ...NEWS_SENTIMENTS];

export const SENTIMENT_LABEL: Record<SentimentFilter, string> = {
  all: "All",
  bullish: "Bullish",
  bearish: "Bearish",
  neutral: "Neutral",
};

/** `?count=` read back: one of the offered counts, else the default. */
export function parseNewsCount(text: string | null): NewsCount {
  const value = Number(text);
  return (NEWS_COUNTS as readonly number[]).includes(value) ? (value as NewsCount) : DEFAULT_NEWS_COUNT;
}

/** `?sentiment=` read back: a sentiment, else all. */
export function parseSentimentFilter(text: string | null): SentimentFilter {
  return isOneOf(NEWS_SENTIMENTS, text) ? text : "all";
}

/**
 * What the sentiment counts cover: the articles loaded ("Sentiment of the latest 20 articles"),
 * not all the news there is.
 */
export function sentimentScope(loaded: number): string {
  return loaded === 1 ? "Sentiment of the latest article" : `Sentiment of the latest ${loaded} articles`;
}

/** How many of `items` each filter button shows. */
export function sentimentCounts(items: readonly NewsItem[]): Record<SentimentFilter, number> {
  const counts: Record<SentimentFilter, number> = { all: items.length, bullish: 0, bearish: 0, neutral: 0 };
  for (const item of items) counts[item.sentiment] += 1;
  return counts;
}

export function filterBySentiment(items: readonly NewsItem[], filter: SentimentFilter): NewsItem[] {
  return filter === "all" ? [...items] : items.filter((item) => item.sentiment === filter);
}

/** The sentiment score with its sign and two decimals: +0.45, -0.30, 0.00. */
export function formatSentimentScore(score: number): string {
  if (!Number.isFinite(score)) return "0.00";
  const text = Math.abs(score).toFixed(2);
  if (Number(text) === 0) return text;
  return `${score > 0 ? "+" : "-"}${text}`;
}

/** The badge of an article that is not a feed's: what it is, and what the tooltip says about it. */
export const ORIGIN_BADGE: Record<NewsOrigin, { label: string; hint: string } | null> = {
  feed: null,
  sample: { label: "Sample", hint: "A sample article bundled with Strikeline to show how the page works, not live news." },
  market_note: { label: "Market note", hint: "Computed by Strikeline from stock prices, not a news report." },
};

/** The analysis's risk level in words. */
export const ANALYSIS_RISK_LABEL: Record<AnalysisRisk, string> = { LOW: "Low", MEDIUM: "Medium", HIGH: "High" };

/** What each trade idea reads as to a screen reader (the badge shows the ticker-style word). */
export const TRADE_IDEA_TEXT: Record<TradeIdea, string> = {
  CALL: "Buy a call",
  PUT: "Buy a put",
  STRADDLE: "Buy a straddle",
  HOLD: "Hold: no trade",
};

/** An article link the page may open: http(s) only, so a feed cannot inject `javascript:` links. */
export function safeExternalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}
