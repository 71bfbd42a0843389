import { describe, expect, it } from "vitest";
import { HELP_ARTICLES } from "@/content/help";
import { POPULAR_TOPICS, searchHelp } from "./search";

describe("help search", () => {
  it("finds an article for each of the six popular topics", () => {
    expect(POPULAR_TOPICS).toHaveLength(6);
    const expected: Record<string, string> = {
      "Reading trading signals": "reading-trading-signals",
      "Risk management": "risk-management",
      "Setting up your first portfolio": "first-portfolio",
      "Using the AI assistant": "ai-assistant",
      "Options Greeks": "options-greeks",
      "Managing notifications": "notifications",
    };
    for (const topic of POPULAR_TOPICS) {
      expect(searchHelp(HELP_ARTICLES, topic)[0]?.slug, topic).toBe(expected[topic]);
    }
  });

  it("searches keywords and headings, and finds nothing for nothing", () => {
    expect(searchHelp(HELP_ARTICLES, "breakeven").length).toBeGreaterThan(0);
    expect(searchHelp(HELP_ARTICLES, "refund").map((a) => a.slug)).toContain("cancel-and-refunds");
    expect(searchHelp(HELP_ARTICLES, "")).toEqual([]);
    expect(searchHelp(HELP_ARTICLES, "dogecoin")).toEqual([]);
  });
});
