import type { NewsAnalysis, NewsItem, Recommendation } from "@/lib/api/models";

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, "0")}`;

/** An analysis as the built-in analyser writes it. */
export function makeNewsAnalysis(overrides: Partial<NewsAnalysis> = {}): NewsAnalysis {
  return {
    signalRecommendation: "CALL",
    confidence: 72,
    timeframe: "1-2 weeks",
    riskLevel: "MEDIUM",
    reasoning: "The article reads clearly positive. AAPL closed at $248.10 on 2026-11-20, above its 20-day average.",
    analyzer: "builtin",
    analyzedAt: "2026-11-23T14:30:00Z",
    ...overrides,
  };
}

/** A news item as GET /api/news answers it on Pro (analysis included). */
export function makeNewsItem(overrides: Partial<NewsItem> = {}): NewsItem {
  seq += 1;
  return {
    id: uuid(seq),
    title: `Apple supplier orders rise ahead of the holidays (${seq})`,
    companyName: "Apple Inc.",
    symbol: "AAPL",
    symbols: ["AAPL"],
    source: "Example Wire",
    origin: "feed",
    publishedAt: new Date(Date.now() - 2 * 3600 * 1000).toISOString(),
    sentiment: "bullish",
    sentimentScore: 0.62,
    imageUrl: null,
    summary: "Component orders rose for a third month, suppliers said.",
    articleUrl: "https://news.example.com/apple-orders",
    aiAnalysis: makeNewsAnalysis(),
    analysisLocked: false,
    ...overrides,
  };
}

/** One recommendation as GET /api/ai/recommendations answers it. */
export function makeRecommendation(overrides: Partial<Recommendation> = {}): Recommendation {
  seq += 1;
  return {
    id: `trade-BUY_CALL-AAPL-2026-11-23-${seq}`,
    type: "trade",
    symbol: "AAPL",
    action: "BUY_CALL",
    title: "Momentum call on AAPL",
    description: "Momentum signal, strength 78/100.",
    reasoning: "AAPL closed at $248.10, above its 20-day average, and RSI is 61.",
    suggestion: "Buy the $250 call expiring Dec 18.",
    suggestedStrike: 250,
    expiration: "2026-12-18",
    timeframe: "2-4 weeks",
    riskLevel: "moderate",
    confidence: 0.78,
    analyzer: "builtin",
    createdAt: "2026-11-23T14:30:00Z",
    ...overrides,
  };
}
