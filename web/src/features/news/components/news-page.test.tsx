import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NewsItem } from "@/lib/api/models";
import { makeNewsAnalysis, makeNewsItem } from "@/test/news-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { NewsPage } from "./news-page";

afterEach(() => vi.unstubAllGlobals());

/** Answers GET /api/news with `items` cut to the requested count. */
function serveNews(items: NewsItem[]) {
  return mockFetch((url) => {
    if (url.startsWith("/api/news")) {
      const count = Number(new URL(url, "http://localhost").searchParams.get("count") ?? 5);
      return jsonResponse(items.slice(0, count));
    }
    return jsonResponse({});
  });
}

const mixed = () => [
  makeNewsItem({ title: "Bull one", sentiment: "bullish" }),
  makeNewsItem({ title: "Bear one", sentiment: "bearish", sentimentScore: -0.41 }),
  makeNewsItem({ title: "Bull two", sentiment: "bullish" }),
  makeNewsItem({ title: "Flat one", sentiment: "neutral", sentimentScore: 0 }),
  makeNewsItem({ title: "Bull three", sentiment: "bullish" }),
];

const cards = () => screen.queryAllByTestId("news-card");

describe("NewsPage", () => {
  it("shows 4 skeletons while the news loads", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<NewsPage />, { route: "/news" });
    expect(screen.getByRole("heading", { level: 1, name: "Market News & AI Analysis" })).toBeInTheDocument();
    expect(screen.getAllByTestId("news-skeleton")).toHaveLength(4);
    expect(screen.getByRole("status")).toHaveTextContent("Loading news");
  });

  it("counts each sentiment and filters on the client", async () => {
    const fetch = serveNews(mixed());
    renderWithProviders(<NewsPage />, { route: "/news" });
    await waitFor(() => expect(cards()).toHaveLength(5));
    const group = screen.getByRole("group", { name: "Sentiment of the latest 5 articles" });
    expect(within(group).getByRole("button", { name: "All 5" })).toHaveAttribute("aria-pressed", "true");
    expect(within(group).getByRole("button", { name: "Bullish 3" })).toBeInTheDocument();
    expect(within(group).getByRole("button", { name: "Bearish 1" })).toBeInTheDocument();
    expect(within(group).getByRole("button", { name: "Neutral 1" })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(group).getByRole("button", { name: "Bearish 1" }));
    expect(cards()).toHaveLength(1);
    expect(screen.getByRole("heading", { name: "Bear one" })).toBeInTheDocument();
    expect(screen.getByTestId("sentiment-badge")).toHaveTextContent("Bearish, score -0.41");
    expect(screen.getByTestId("location")).toHaveTextContent("/news");

    await user.click(within(group).getByRole("button", { name: "Bullish 3" }));
    expect(cards()).toHaveLength(3);
    // The filter never asks the server again.
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith("/api/news"))).toHaveLength(1);
  });

  it("asks the server for the chosen number of articles", async () => {
    const all = Array.from({ length: 30 }, (_, i) => makeNewsItem({ title: `Story ${i + 1}` }));
    const fetch = serveNews(all);
    renderWithProviders(<NewsPage />, { route: "/news" });
    await waitFor(() => expect(cards()).toHaveLength(5));
    expect(String(fetch.mock.calls[0][0])).toBe("/api/news?count=5");

    const counts = screen.getByRole("group", { name: "Articles to load" });
    expect(
      within(counts)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["5", "20", "25", "100"]);
    expect(within(counts).getByRole("button", { name: "5" })).toHaveAttribute("aria-pressed", "true");
    await userEvent.setup().click(within(counts).getByRole("button", { name: "20" }));
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain("/api/news?count=20");
    expect(screen.getByRole("button", { name: "All 20" })).toBeInTheDocument();
  });

  it("shows the empty state when there is no news", async () => {
    serveNews([]);
    renderWithProviders(<NewsPage />, { route: "/news" });
    expect(await screen.findByText("No news available")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Upgrade/ })).not.toBeInTheDocument();
  });

  it("says so when a filter matches nothing, and goes back to all", async () => {
    serveNews([makeNewsItem({ sentiment: "bullish" })]);
    renderWithProviders(<NewsPage />, { route: "/news?sentiment=bearish" });
    expect(await screen.findByText("No news available")).toBeInTheDocument();
    expect(screen.getByText("None of the latest 1 articles is bearish.")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Show all articles" }));
    expect(cards()).toHaveLength(1);
  });

  it("hides an image that fails to load", async () => {
    serveNews([makeNewsItem({ imageUrl: "https://images.example.com/broken.jpg" }), makeNewsItem({ imageUrl: "javascript:alert(1)" })]);
    const { container } = renderWithProviders(<NewsPage />, { route: "/news" });
    await waitFor(() => expect(cards()).toHaveLength(2));
    const images = container.querySelectorAll("img");
    // Only http(s) images are shown.
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute("alt", "");
    fireEvent.error(images[0]);
    expect(container.querySelectorAll("img")).toHaveLength(0);
  });

  it("shows the AI analysis: idea, strength (out of 100, not a percentage), timeframe, risk, reasoning and who analysed it", async () => {
    serveNews([
      makeNewsItem({ title: "Built-in", aiAnalysis: makeNewsAnalysis({ signalRecommendation: "PUT", confidence: 64, riskLevel: "HIGH" }) }),
      makeNewsItem({ title: "OpenAI", aiAnalysis: makeNewsAnalysis({ analyzer: "openai" }) }),
    ]);
    renderWithProviders(<NewsPage />, { route: "/news" });
    const first = within((await screen.findByRole("heading", { name: "Built-in" })).closest("article")!);
    const analysis = within(first.getByRole("region", { name: "AI analysis" }));
    expect(analysis.getByTestId("trade-idea")).toHaveTextContent("PUT");
    expect(analysis.getByText("Strength")).toBeInTheDocument();
    expect(analysis.getByText("64/100")).toBeInTheDocument();
    expect(analysis.getByRole("img", { name: "Strength 64 out of 100" })).toBeInTheDocument();
    expect(analysis.queryByText("64%")).not.toBeInTheDocument();
    expect(analysis.queryByText("Confidence")).not.toBeInTheDocument();
    expect(analysis.getByText("1-2 weeks")).toBeInTheDocument();
    expect(analysis.getByText("High")).toBeInTheDocument();
    expect(analysis.getByText(/closed at \$248\.10/)).toBeInTheDocument();
    expect(analysis.getByText("Analysed by Strikeline's built-in model")).toBeInTheDocument();
    expect(screen.getByText("Analysed by an OpenAI-compatible model")).toBeInTheDocument();

    const read = first.getByRole("link", { name: /Read article/ });
    expect(read).toHaveAttribute("href", "https://news.example.com/apple-orders");
    expect(read).toHaveAttribute("target", "_blank");
    expect(read).toHaveAttribute("rel", "noopener noreferrer");
    expect(first.getByRole("link", { name: "AAPL signals" })).toHaveAttribute("href", "/signals?symbol=AAPL");
    expect(first.getByText("Apple Inc.")).toBeInTheDocument();
    expect(screen.queryByText("AI analysis is a Pro feature")).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Upgrade/ })).not.toBeInTheDocument();
  });

  it("offers the upgrade when the analysis is locked (Free plan)", async () => {
    serveNews([makeNewsItem({ aiAnalysis: null, analysisLocked: true }), makeNewsItem({ aiAnalysis: null, analysisLocked: true })]);
    renderWithProviders(<NewsPage />, { route: "/news" });
    expect(await screen.findAllByText("AI analysis is a Pro feature")).toHaveLength(2);
    expect(screen.queryByTestId("news-analysis")).not.toBeInTheDocument();
    const upgrades = screen.getAllByRole("link", { name: /Upgrade/ });
    expect(upgrades).toHaveLength(3);
    for (const link of upgrades) expect(link).toHaveAttribute("href", "/pricing");
  });

  it("badges samples and market notes; the note's tooltip says it is computed from prices", async () => {
    serveNews([
      makeNewsItem({ title: "A sample", origin: "sample", source: "Strikeline sample", articleUrl: null }),
      makeNewsItem({ title: "A note", origin: "market_note", source: "Strikeline market notes", articleUrl: null }),
      makeNewsItem({ title: "A feed article", origin: "feed" }),
    ]);
    renderWithProviders(<NewsPage />, { route: "/news" });
    const sample = within((await screen.findByRole("heading", { name: "A sample" })).closest("article")!);
    expect(sample.getByRole("button", { name: "Sample" })).toBeInTheDocument();
    expect(sample.queryByRole("link", { name: /Read article/ })).not.toBeInTheDocument();
    const feed = within(screen.getByRole("heading", { name: "A feed article" }).closest("article")!);
    expect(feed.queryByTestId("origin-badge")).not.toBeInTheDocument();

    const note = within(screen.getByRole("heading", { name: "A note" }).closest("article")!).getByRole("button", { name: "Market note" });
    // jsdom has no ResizeObserver; Radix measures the tooltip with one.
    vi.stubGlobal(
      "ResizeObserver",
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    // Keyboard focus opens it at once (hover waits 700 ms).
    act(() => note.focus());
    expect((await screen.findAllByText("Computed by Strikeline from stock prices, not a news report.")).length).toBeGreaterThan(0);
  });

  it("toasts 'Failed to fetch news' when the news cannot be read", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<NewsPage />, { route: "/news" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to fetch news");
    await waitFor(() => expect(screen.getAllByText("Failed to fetch news").length).toBeGreaterThan(1));
  });

  it("refetches on Refresh", async () => {
    const fetch = serveNews(mixed());
    renderWithProviders(<NewsPage />, { route: "/news" });
    await waitFor(() => expect(cards()).toHaveLength(5));
    await userEvent.setup().click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(fetch.mock.calls.filter(([url]) => String(url).startsWith("/api/news"))).toHaveLength(2));
    expect(await screen.findByRole("button", { name: "Refresh" })).toBeEnabled();
  });
});
