import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ManualPosition } from "@/lib/api/models";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeManualPosition, makePositionDetail } from "@/test/portfolio-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { ManualPositions } from "./manual-positions";

afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

function api(list: ManualPosition[], { deleteStatus = 204 }: { deleteStatus?: number } = {}) {
  let positions = [...list];
  return mockFetch((url, init) => {
    if (url === "/api/manual-positions" && (init.method ?? "GET") === "GET") return jsonResponse(positions);
    if (url === "/api/manual-positions" && init.method === "POST") {
      const created = makeManualPosition({ ...(JSON.parse(String(init.body)) as Partial<ManualPosition>) });
      positions = [created, ...positions];
      return jsonResponse(created, 201);
    }
    const id = url.replace("/api/manual-positions/", "");
    if (init.method === "DELETE") {
      if (deleteStatus !== 204) return problem(deleteStatus, "Internal Server Error");
      positions = positions.filter((p) => p.id !== id);
      return new Response(null, { status: 204 });
    }
    const found = positions.find((p) => p.id === id);
    if (found)
      return jsonResponse(
        makePositionDetail({
          id,
          kind: "manual",
          signal: { ...makePositionDetail().signal, symbol: found.symbol, strategy: null, confidence: null },
        }),
      );
    return problem(404, "Not Found");
  });
}

const getCalls = (fetchMock: ReturnType<typeof mockFetch>, url: string) =>
  fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? "GET") === "GET").length;

describe("ManualPositions", () => {
  it("keeps the contract's prices in US dollars and shows the P&L in euros", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    api([makeManualPosition({ strikePrice: 390, entryPrice: 6.5, currentPrice: 7.25, underlyingPrice: 401.2, pnl: 225 })]);
    renderWithProviders(<ManualPositions />);
    const card = await screen.findByRole("article", { name: "MSFT PUT manual position" });
    const fact = (label: string) => within(card).getByText(label, { selector: "dt" }).nextElementSibling;
    expect(fact("Strike")).toHaveTextContent(/^US\$390\.00$/);
    expect(fact("Entry / Now")).toHaveTextContent(/^US\$6\.50 → US\$7\.25$/);
    expect(fact("Underlying")).toHaveTextContent(/^US\$401\.20$/);
    expect(within(card).getByTestId("manual-pnl")).toHaveTextContent(/^\+€207\.00 \(/);
    expect(card).not.toHaveTextContent("€358.80");
  });

  it("shows 'No Manual Positions' and opens the form from 'Add Your First Position'", async () => {
    api([]);
    renderWithProviders(<ManualPositions />);
    expect(await screen.findByText("No Manual Positions")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Add Your First Position" }));
    expect(await screen.findByRole("dialog", { name: "Add Manual Position" })).toBeInTheDocument();
  });

  it("lists each position valued now, with its status badge", async () => {
    api([
      makeManualPosition({ symbol: "MSFT", status: "open" }),
      makeManualPosition({ symbol: "NVDA", type: "STRADDLE", status: "closed", pnl: 250, pnlPercent: 20.161 }),
      makeManualPosition({ symbol: "TSLA", type: "CALL", status: "expired" }),
    ]);
    renderWithProviders(<ManualPositions />);
    const msft = await screen.findByRole("article", { name: "MSFT PUT manual position" });
    for (const text of [
      "Microsoft Corporation",
      "$400.00",
      "Dec 18, 2026",
      "3 contracts",
      "$5.10 → $4.20",
      "-$270.00 (-17.65%)",
      "$412.50",
    ]) {
      expect(msft).toHaveTextContent(text);
    }
    expect(within(msft).getByText("OPEN")).toHaveAttribute("data-status", "open");
    // open, closed and expired are the default, secondary and destructive badges.
    expect(within(msft).getByText("OPEN").className).toMatch(/bg-primary/);
    const nvda = screen.getByRole("article", { name: "NVDA STRADDLE manual position" });
    expect(within(nvda).getByText("CLOSED").className).toMatch(/bg-secondary/);
    expect(within(nvda).getByTestId("manual-pnl")).toHaveTextContent("+$250.00 (+20.16%)");
    const tsla = screen.getByRole("article", { name: "TSLA CALL manual position" });
    expect(within(tsla).getByText("EXPIRED").className).toMatch(/bg-destructive/);
  });

  it("refetches the list after a position is added", async () => {
    const fetchMock = api([]);
    renderWithProviders(<ManualPositions />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add Your First Position" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Add Manual Position" }));
    await user.type(dialog.getByLabelText("Stock Symbol"), "amd");
    await user.type(dialog.getByLabelText("Company Name"), "Advanced Micro Devices");
    await user.type(dialog.getByLabelText("Strike Price (USD)"), "150");
    await user.type(dialog.getByLabelText("Entry Price (USD)"), "4.1");
    await user.click(dialog.getByRole("button", { name: "Add Position" }));
    expect(await screen.findByRole("article", { name: "AMD CALL manual position" })).toBeInTheDocument();
    expect(getCalls(fetchMock, "/api/manual-positions")).toBe(2);
  });

  it("deletes after asking, with 'Success' - 'Position deleted successfully'", async () => {
    api([makeManualPosition({ symbol: "MSFT" }), makeManualPosition({ symbol: "NVDA" })]);
    renderWithProviders(<ManualPositions />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete MSFT position" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete this position?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Position deleted successfully")).toBeInTheDocument();
    expect(screen.getByText("Success")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("article", { name: /^MSFT/ })).not.toBeInTheDocument());
    expect(screen.getByRole("article", { name: /^NVDA/ })).toBeInTheDocument();
  });

  it("says 'Failed to delete position' when the server refuses", async () => {
    api([makeManualPosition({ symbol: "MSFT" })], { deleteStatus: 500 });
    renderWithProviders(<ManualPositions />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete MSFT position" }));
    const confirm = await screen.findByRole("alertdialog");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Failed to delete position")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    // The question stays open to try again or cancel; the position stays listed.
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(await screen.findByRole("article", { name: /^MSFT/ })).toBeInTheDocument();
  });

  it("opens a position's details from GET /api/manual-positions/{id}, with its stop loss and creation date", async () => {
    const position = makeManualPosition({ symbol: "MSFT", stopLoss: 2.5 });
    const fetchMock = api([position]);
    renderWithProviders(<ManualPositions />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Details of MSFT position" }));
    const detail = within(await screen.findByTestId("position-detail"));
    expect(await detail.findByText("Manual")).toBeInTheDocument();
    expect(detail.getByText("Stop Loss").nextSibling).toHaveTextContent("$2.50");
    expect(detail.getByText("Created")).toBeInTheDocument();
    expect(detail.getByText("Your own entry")).toBeInTheDocument();
    expect(detail.queryByRole("button", { name: "Add to Portfolio" })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === `/api/manual-positions/${position.id}`)).toBe(true);
  });

  it("says 'Failed to fetch positions' when the list cannot be loaded", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<ManualPositions />);
    expect(await screen.findByText("Failed to fetch positions")).toBeInTheDocument();
  });
});
