import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HeldStructureView } from "@/lib/api/models";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeExpiredHeldStructure, makeHeldStructure } from "@/test/portfolio-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { HeldStructures, legsSummary } from "./held-structures";

afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

function api(list: HeldStructureView[], { deleteStatus = 204 }: { deleteStatus?: number } = {}) {
  let positions = [...list];
  return mockFetch((url, init) => {
    if (url === "/api/portfolio/structures" && (init.method ?? "GET") === "GET") return jsonResponse(positions);
    if (url.startsWith("/api/portfolio/structures/") && init.method === "DELETE") {
      if (deleteStatus !== 204) return problem(deleteStatus, "Internal Server Error");
      const id = url.replace("/api/portfolio/structures/", "");
      positions = positions.filter((p) => p.id !== id);
      return new Response(null, { status: 204 });
    }
    return problem(404, "Not Found");
  });
}

/** The <dd> a card shows under `label`. */
const fact = (card: HTMLElement, label: string) =>
  within(card).getByText(label, { selector: "dt, dt *" }).closest("div")?.querySelector("dd");

describe("HeldStructures", () => {
  it("shows an open iron condor: the credit, value, P&L on risk, payoff at expiry and Greeks", async () => {
    api([makeHeldStructure()]);
    renderWithProviders(<HeldStructures />);
    const card = await screen.findByRole("article", { name: "AAPL iron condor multi-leg position" });
    expect(within(card).getByText("OPEN")).toHaveAttribute("data-status", "open");
    expect(within(card).getByTestId("held-legs")).toHaveTextContent(
      "Short 1 Put $95.00 · Long 1 Put $90.00 · Short 1 Call $110.00 · Long 1 Call $115.00 exp Dec 18, 2026",
    );
    expect(fact(card, "Net credit")).toHaveTextContent(/^\$150\.00$/);
    expect(within(card).queryByText("Net debit")).not.toBeInTheDocument();
    expect(fact(card, "Current value")).toHaveTextContent(/^-\$90\.00$/);
    const pnl = fact(card, "P&L");
    expect(pnl).toHaveTextContent(/^\+\$60\.00 \(\+17\.14% on risk\)$/);
    expect(pnl?.firstElementChild).toHaveClass("text-positive-strong");
    expect(fact(card, "Capital at risk")).toHaveTextContent(/^\$350\.00$/);
    expect(fact(card, "Days to expiry")).toHaveTextContent(/^20 days$/);
    expect(fact(card, "Max profit")).toHaveTextContent(/^\+\$150\.00$/);
    expect(fact(card, "Max loss")).toHaveTextContent(/^-\$350\.00$/);
    expect(fact(card, "Breakevens")).toHaveTextContent(/^\$93\.50, \$111\.50$/);
    expect(fact(card, "Probability of profit")).toHaveTextContent(/^61\.2%$/);
    const greeks = within(card).getByTestId("held-greeks");
    expect(fact(greeks, "Delta")).toHaveTextContent(/^-3\.25$/);
    expect(fact(greeks, "Gamma")).toHaveTextContent(/^-0\.0123$/);
    expect(fact(greeks, "Theta, per day")).toHaveTextContent(/^\+\$4\.50$/);
    expect(fact(greeks, "Vega, per volatility point")).toHaveTextContent(/^-\$12\.30$/);
    expect(within(greeks).getByText("Δ")).toBeInTheDocument();
    expect(within(card).queryByText("Settled price")).not.toBeInTheDocument();
  });

  it("says Unlimited for an unbounded maximum, and converts amounts but not strikes into the display currency", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    api([
      makeHeldStructure({
        name: "MSFT short call",
        symbol: "MSFT",
        template: "short-call",
        legs: [{ instrument: "call", side: "short", quantity: 2, strike: 420, expirationDate: "2027-01-15", entryPrice: 6.25 }],
        netPremium: -1250,
        atExpiry: {
          maxProfit: { unbounded: false, pnl: 1250, spot: 420 },
          maxLoss: { unbounded: true, pnl: null, spot: null },
          breakevens: [426.25],
          profitableRanges: [{ from: 0, to: 426.25 }],
          probabilityOfProfit: 0.7,
        },
      }),
    ]);
    renderWithProviders(<HeldStructures />);
    const card = await screen.findByRole("article", { name: "MSFT short call multi-leg position" });
    expect(fact(card, "Max loss")).toHaveTextContent(/^Unlimited$/);
    expect(fact(card, "Max loss")?.firstElementChild).toHaveClass("text-destructive-strong");
    expect(fact(card, "Breakeven")).toHaveTextContent(/^US\$426\.25$/);
    expect(fact(card, "Net credit")).toHaveTextContent(/^€1,150\.00$/);
    expect(within(card).getByTestId("held-legs")).toHaveTextContent("Short 2 Call US$420.00 exp Jan 15, 2027");
  });

  it("shows an expired position as settled: the settled price and the realized P&L, no Greeks", async () => {
    api([makeExpiredHeldStructure()]);
    renderWithProviders(<HeldStructures />);
    const card = await screen.findByRole("article", { name: "AAPL condor, November multi-leg position" });
    expect(within(card).getByText("EXPIRED")).toHaveAttribute("data-status", "expired");
    expect(fact(card, "Settled price")).toHaveTextContent(/^\$101\.37$/);
    expect(fact(card, "Realized P&L")).toHaveTextContent(/^\+\$150\.00 \(\+42\.86% on risk\)$/);
    expect(fact(card, "Net credit")).toHaveTextContent(/^\$150\.00$/);
    expect(within(card).queryByTestId("held-greeks")).not.toBeInTheDocument();
    expect(within(card).queryByText("Max profit")).not.toBeInTheDocument();
    expect(within(card).queryByText("Days to expiry")).not.toBeInTheDocument();
  });

  it("says there are none yet, with the way to the strategy builder", async () => {
    api([]);
    renderWithProviders(<HeldStructures />);
    expect(await screen.findByText("No multi-leg positions yet")).toBeInTheDocument();
    expect(screen.getByText("Build one in the Strategy Builder and save it to your portfolio.")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("link", { name: "Open the Strategy Builder" }));
    expect(screen.getByTestId("location")).toHaveTextContent("/strategy-builder");
  });

  it("deletes after asking, with DELETE /api/portfolio/structures/{id}", async () => {
    const condor = makeHeldStructure();
    const expired = makeExpiredHeldStructure();
    const fetchMock = api([condor, expired]);
    renderWithProviders(<HeldStructures />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete AAPL iron condor" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete this position?" });
    expect(confirm).toHaveTextContent("AAPL iron condor: Short 1 Put $95.00");
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === "DELETE").map(([u]) => String(u));
    expect(deletes()).toEqual([]);
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Position deleted successfully")).toBeInTheDocument();
    expect(deletes()).toEqual([`/api/portfolio/structures/${condor.id}`]);
    await waitFor(() => expect(screen.queryByRole("article", { name: /iron condor/ })).not.toBeInTheDocument());
    expect(screen.getByRole("article", { name: /condor, November/ })).toBeInTheDocument();
  });

  it("keeps the position and says why when the server refuses", async () => {
    api([makeHeldStructure()], { deleteStatus: 500 });
    renderWithProviders(<HeldStructures />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete AAPL iron condor" }));
    const confirm = await screen.findByRole("alertdialog");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Internal Server Error")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("article", { name: /iron condor/ })).toBeInTheDocument();
  });

  it("says 'Failed to fetch multi-leg positions' when the list cannot be loaded", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<HeldStructures />);
    expect(await screen.findByText("Failed to fetch multi-leg positions")).toBeInTheDocument();
  });
});

describe("legsSummary", () => {
  it("names each leg, and each expiry when the legs do not share one", () => {
    expect(
      legsSummary([
        { instrument: "call", side: "short", quantity: 1, strike: 100, expirationDate: "2026-12-18" },
        { instrument: "call", side: "long", quantity: 1, strike: 100, expirationDate: "2027-01-15" },
        { instrument: "stock", side: "long", quantity: 100 },
      ]),
    ).toBe("Short 1 Call $100.00 exp Dec 18, 2026 · Long 1 Call $100.00 exp Jan 15, 2027 · Long 100 shares");
  });
});
