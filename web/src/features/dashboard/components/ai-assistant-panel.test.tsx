import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeRecommendation } from "@/test/news-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { AiAssistantPanel } from "./ai-assistant-panel";

afterEach(() => vi.unstubAllGlobals());

describe("AiAssistantPanel", () => {
  it("asks for 6 and lists them by type, each with its action, symbol, strength (out of 100, not a percentage), risk and suggestion", async () => {
    const fetch = mockFetch(() =>
      jsonResponse([
        makeRecommendation({
          type: "risk",
          action: "REDUCE_EXPOSURE",
          symbol: null,
          title: "Too much in one stock",
          riskLevel: "high",
          confidence: 0.9,
          suggestion: "Trim AAPL.",
        }),
        makeRecommendation({
          type: "portfolio",
          action: "CLOSE_OR_ROLL",
          title: "Roll the MSFT call",
          symbol: "MSFT",
          riskLevel: "low",
          confidence: 0.55,
        }),
        makeRecommendation({ title: "Momentum call on AAPL" }),
      ]),
    );
    renderWithProviders(<AiAssistantPanel included />);
    expect(screen.getByRole("heading", { name: "AI Investment Assistant" })).toBeInTheDocument();
    expect(screen.getByText("Pro Feature")).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId("recommendation")).toHaveLength(3));
    expect(String(fetch.mock.calls[0][0])).toBe("/api/ai/recommendations?limit=6");

    expect(screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual([
      "Risk recommendations",
      "Portfolio recommendations",
      "Trade recommendations",
    ]);
    const risk = within(screen.getByRole("heading", { name: "Too much in one stock" }).closest("li")!);
    expect(risk.getByTestId("recommendation-action")).toHaveTextContent("REDUCE EXPOSURE");
    expect(risk.getByText("90/100")).toBeInTheDocument();
    expect(risk.getByText(/^Strength/)).toHaveTextContent("Strength 90/100");
    expect(risk.queryByText("90%")).not.toBeInTheDocument();
    expect(risk.queryByText(/Confidence/)).not.toBeInTheDocument();
    expect(risk.getByText("High")).toBeInTheDocument();
    expect(risk.getByText("Trim AAPL.")).toBeInTheDocument();
    const roll = within(screen.getByRole("heading", { name: "Roll the MSFT call" }).closest("li")!);
    expect(roll.getByText("MSFT")).toBeInTheDocument();
    expect(roll.getByText("55/100")).toBeInTheDocument();
    expect(roll.queryByText("55%")).not.toBeInTheDocument();
    expect(roll.getByText("Low")).toBeInTheDocument();
    const trade = within(screen.getByRole("heading", { name: "Momentum call on AAPL" }).closest("li")!);
    expect(trade.getByText("BUY CALL")).toBeInTheDocument();
    expect(trade.getByText("Medium")).toBeInTheDocument();
  });

  it("shows the reasoning, strike and expiration behind Why", async () => {
    mockFetch(() => jsonResponse([makeRecommendation()]));
    renderWithProviders(<AiAssistantPanel included />);
    const why = await screen.findByRole("button", { name: "Why: Momentum call on AAPL" });
    expect(why).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText(/closed at \$248\.10/)).not.toBeVisible();

    await userEvent.setup().click(why);
    expect(why).toHaveAttribute("aria-expanded", "true");
    const details = document.getElementById(why.getAttribute("aria-controls")!)!;
    expect(details).toBeVisible();
    expect(within(details).getByText(/closed at \$248\.10/)).toBeInTheDocument();
    expect(within(details).getByText("$250.00")).toBeInTheDocument();
    expect(within(details).getByText("Dec 18, 2026")).toBeInTheDocument();
    expect(within(details).getByText("2-4 weeks")).toBeInTheDocument();
    expect(within(details).getByText("Analysed by Strikeline's built-in model")).toBeInTheDocument();

    await userEvent.setup().click(why);
    expect(why).toHaveAttribute("aria-expanded", "false");
  });

  it("keeps the suggested strike in US dollars when money is shown in euros", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    try {
      mockFetch(() => jsonResponse([makeRecommendation()]));
      renderWithProviders(<AiAssistantPanel included />);
      await userEvent.setup().click(await screen.findByRole("button", { name: "Why: Momentum call on AAPL" }));
      const strike = screen.getByText("Strike", { selector: "dt" }).nextElementSibling;
      expect(strike).toHaveTextContent(/^US\$250\.00$/);
    } finally {
      setMoneyDisplay(null);
    }
  });

  it("offers the upgrade on a plan without AI recommendations (403)", async () => {
    mockFetch(() => problem(403, "Forbidden", "AI recommendations are part of Pro and Premium."));
    renderWithProviders(<AiAssistantPanel included />);
    expect((await screen.findAllByText("Upgrade to Pro for AI-powered insights")).length).toBeGreaterThan(0);
    expect(screen.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/pricing");
    // Not an error: no toast.
    expect(screen.queryByText("Failed to fetch AI recommendations")).not.toBeInTheDocument();
  });

  it("says when there are no recommendations", async () => {
    mockFetch(() => jsonResponse([]));
    renderWithProviders(<AiAssistantPanel included />);
    expect(await screen.findByText("No AI recommendations available")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Upgrade to Pro" })).not.toBeInTheDocument();
  });

  it("toasts 'Failed to fetch AI recommendations' on any other failure", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<AiAssistantPanel included />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to fetch AI recommendations");
    await waitFor(() => expect(screen.getAllByText("Failed to fetch AI recommendations").length).toBeGreaterThan(1));
  });

  it("shows skeletons while loading", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<AiAssistantPanel included />);
    expect(screen.getByRole("status")).toHaveTextContent("Loading AI recommendations");
  });
});
