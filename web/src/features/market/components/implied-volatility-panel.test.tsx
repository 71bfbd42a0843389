import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeHiddenIvHistory, makeIvHistory } from "@/test/options-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { ImpliedVolatilityPanel } from "./implied-volatility-panel";

afterEach(() => vi.unstubAllGlobals());

const URL = "/api/stock-prices/AAPL/implied-volatility";

describe("ImpliedVolatilityPanel", () => {
  it("draws the year's readings and places today in them: IV, rank, percentile, high and low with their dates", async () => {
    const fetchMock = mockFetch((url) => (url === URL ? jsonResponse(makeIvHistory()) : problem(404, "Not Found")));
    renderWithProviders(<ImpliedVolatilityPanel symbol="AAPL" />);
    const chart = await screen.findByRole("img", { name: /^AAPL 30-day implied volatility: 4 points from Nov 21, 2025 \(22\.0%\)/ });
    expect(chart).toHaveAccessibleName(/to Nov 20, 2026 \(23\.9%\); high 47\.6%, low 18\.2%\.$/);
    expect(screen.getByTestId("iv-current")).toHaveTextContent("Current IV23.9%Nov 20, 2026");
    expect(screen.getByTestId("iv-rank")).toHaveTextContent("IV rank19of 100");
    expect(screen.getByTestId("iv-percentile")).toHaveTextContent("IV percentile31of 100");
    expect(screen.getByTestId("iv-high")).toHaveTextContent("52-week high47.6% · Apr 9, 2026");
    expect(screen.getByTestId("iv-low")).toHaveTextContent("52-week low18.2% · Feb 4, 2026");
    expect(
      screen.getByRole("img", { name: /^IV rank 19 out of 100: the current 23\.9% between the 52-week low, 18\.2% on Feb 4, 2026/ }),
    ).toBeInTheDocument();
    expect(screen.getByTestId("iv-recorded")).toHaveTextContent("Recorded sessions251 of 253");
    expect(screen.getByTestId("iv-missing")).toHaveTextContent("Missing sessions2");
    expect(screen.getByText("Nov 21, 2025 – Nov 20, 2026")).toBeInTheDocument();
    expect(screen.queryByTestId("iv-hidden-reason")).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("while rank and percentile are hidden, shows the server's reason as it is, the latest reading and the way to 200", async () => {
    mockFetch(() => jsonResponse(makeHiddenIvHistory()));
    renderWithProviders(<ImpliedVolatilityPanel symbol="AAPL" />);
    const note = await screen.findByRole("note", { name: "IV rank and IV percentile are hidden" });
    expect(note).toHaveTextContent("IV rank needs 200 recorded sessions in the last year; 3 recorded so far.");
    expect(screen.getByTestId("iv-latest")).toHaveTextContent("Latest IV23.9%Nov 20, 2026");
    expect(screen.getByTestId("iv-rank")).toHaveTextContent("IV rank—Needs 200 sessions");
    expect(screen.queryByTestId("iv-percentile")).not.toBeInTheDocument();
    const progress = screen.getByRole("progressbar", { name: "Recorded toward IV rank" });
    expect(progress).toHaveAttribute("aria-valuenow", "3");
    expect(progress).toHaveAttribute("aria-valuemax", "200");
    expect(screen.getByTestId("iv-recorded")).toHaveTextContent("3 of 253");
    expect(screen.getByTestId("iv-missing")).toHaveTextContent("0");
    expect(screen.getByRole("img", { name: /^AAPL 30-day implied volatility: 3 points/ })).toBeInTheDocument();
  });

  it("says a single reading cannot be drawn yet", async () => {
    mockFetch(() => jsonResponse({ ...makeHiddenIvHistory(), series: [{ date: "2026-11-20", iv: 0.24 }], recordedSessions: 1 }));
    renderWithProviders(<ImpliedVolatilityPanel symbol="AAPL" />);
    expect(await screen.findByText("One reading so far: the chart starts with the second.")).toBeInTheDocument();
    expect(within(screen.getByTestId("iv-panel")).queryByRole("img")).not.toBeInTheDocument();
  });

  it("says a stock is off the watchlist, with Try again", async () => {
    mockFetch(() => problem(404, "Not Found"));
    renderWithProviders(<ImpliedVolatilityPanel symbol="ZZZZ" />);
    expect(await screen.findByText("ZZZZ is not on the watchlist")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
