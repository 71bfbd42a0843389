import { describe, expect, it } from "vitest";
import { makeNewsItem } from "@/test/news-fixtures";
import {
  filterBySentiment,
  formatSentimentScore,
  parseNewsCount,
  parseSentimentFilter,
  safeExternalUrl,
  sentimentCounts,
  sentimentScope,
} from "./news";

describe("news helpers", () => {
  it("reads the count and the sentiment back from the URL, else the defaults", () => {
    expect([null, "20", "25", "100", "7", "abc"].map(parseNewsCount)).toEqual([5, 20, 25, 100, 5, 5]);
    expect([null, "bullish", "bearish", "neutral", "BULLISH", "all"].map(parseSentimentFilter)).toEqual([
      "all",
      "bullish",
      "bearish",
      "neutral",
      "all",
      "all",
    ]);
  });

  it("counts and filters by sentiment", () => {
    const items = [makeNewsItem({ sentiment: "bullish" }), makeNewsItem({ sentiment: "bearish" }), makeNewsItem({ sentiment: "bullish" })];
    expect(sentimentCounts(items)).toEqual({ all: 3, bullish: 2, bearish: 1, neutral: 0 });
    expect(filterBySentiment(items, "bullish")).toHaveLength(2);
    expect(filterBySentiment(items, "neutral")).toEqual([]);
    expect(filterBySentiment(items, "all")).toHaveLength(3);
  });

  it("says the counts cover only the articles loaded", () => {
    expect(sentimentScope(20)).toBe("Sentiment of the latest 20 articles");
    expect(sentimentScope(1)).toBe("Sentiment of the latest article");
  });

  it("writes the score with its sign and two decimals", () => {
    expect([0.456, -0.3, 0, -0.001, 1].map(formatSentimentScore)).toEqual(["+0.46", "-0.30", "0.00", "0.00", "+1.00"]);
  });

  it("opens only http(s) links", () => {
    expect(safeExternalUrl("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeExternalUrl("http://example.com")).toBe("http://example.com/");
    expect(safeExternalUrl("javascript:alert(1)")).toBeNull();
    expect(safeExternalUrl("/relative")).toBeNull();
    expect(safeExternalUrl(null)).toBeNull();
  });
});
