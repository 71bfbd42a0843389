import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { vi } from "vitest";
import { includesStrategyBuilder } from "@/features/auth/lib/plan";
import type { LegInput, NewHeldStructure, StructureAnalysis } from "@/lib/api/models";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { OptionChainPicker } from "@/features/market/components/option-chain";
import type { ChainPickerProps } from "@/lib/options";
import { makeOptionChain } from "@/test/options-fixtures";
import { makeHeldStructure } from "@/test/portfolio-fixtures";
import { draftOf, EMPTY_STATE, encodeState, MAX_LEGS } from "../lib/builder";
import { StrategyBuilderPage } from "./strategy-builder-page";

afterEach(() => vi.unstubAllGlobals());

const STOCKS = [{ symbol: "AAPL", companyName: "Apple Inc.", currentPrice: 200, change: 0, changePercent: 0 }];

const CONDOR: LegInput[] = [
  { instrument: "put", side: "long", quantity: 1, strike: 180, expirationDate: "2027-01-15", entryPrice: 0.8 },
  { instrument: "put", side: "short", quantity: 1, strike: 190, expirationDate: "2027-01-15", entryPrice: 2.1 },
  { instrument: "call", side: "short", quantity: 1, strike: 210, expirationDate: "2027-01-15", entryPrice: 2.0 },
  { instrument: "call", side: "long", quantity: 1, strike: 220, expirationDate: "2027-01-15", entryPrice: 0.7 },
];

const LONG_CALL: LegInput[] = [{ instrument: "call", side: "long", quantity: 1, strike: 200, expirationDate: "2027-01-15" }];

function makeAnalysis(overrides: Partial<StructureAnalysis> = {}): StructureAnalysis {
  return {
    symbol: "AAPL",
    spot: 200,
    volatility: 0.25,
    rate: 0.04,
    dividendYield: 0,
    firstExpiration: "2027-01-15",
    horizonDate: "2026-11-28",
    volatilityShift: 0,
    exercise: "american",
    legs: LONG_CALL.map((l) => ({ ...l, entryPrice: 5.5, modelPrice: 5.5 })),
    netPremium: 550,
    atExpiry: {
      maxProfit: { unbounded: true, pnl: null, spot: null },
      maxLoss: { unbounded: false, pnl: -550, spot: 0 },
      breakevens: [205.5],
      profitableRanges: [{ from: 205.5, to: null }],
      probabilityOfProfit: 0.4237,
    },
    greeks: { delta: 52.1, gamma: 0.021, vega: 31.2, theta: -6.4, rho: 12 },
    payoff: [180, 200, 220].map((spot) => ({ spot, atExpiry: Math.max(0, spot - 200) * 100 - 550, atHorizon: spot * 2 - 400 })),
    scenarios: {
      spots: [190, 200, 210],
      volatilityShifts: [-0.1, 0, 0.1],
      pnl: [
        [-400, -300, -200],
        [-100, 0, 100],
        [300, 400, 500],
      ],
    },
    ...overrides,
  };
}

function api({
  analysis = () => jsonResponse(makeAnalysis()),
  save = (body: NewHeldStructure) => jsonResponse(makeHeldStructure({ name: body.name ?? "AAPL iron condor" }), 201),
}: { analysis?: () => Response; save?: (body: NewHeldStructure) => Response } = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/portfolio/structures" && init.method === "POST") return save(JSON.parse(String(init.body)) as NewHeldStructure);
    if (url === "/api/stock-prices") return jsonResponse(STOCKS);
    if (url === "/api/structures/template" && init.method === "POST") return jsonResponse({ template: "iron-condor", legs: CONDOR });
    if (url === "/api/structures/analysis" && init.method === "POST") return analysis();
    if (url.startsWith("/api/stock-prices/AAPL/options")) {
      const asked = new URLSearchParams(url.split("?")[1] ?? "").get("expiration");
      return jsonResponse(makeOptionChain(asked ? { expiration: asked } : {}));
    }
    return problem(404, "Not Found");
  });
}

const linkTo = (legs: LegInput[]) => `/strategy-builder?s=${encodeState({ ...EMPTY_STATE, symbol: "AAPL", legs: legs.map(draftOf) })}`;

describe("StrategyBuilderPage", () => {
  it("is locked on Pro, with the way to Premium, and asks nothing of /api/structures", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked={includesStrategyBuilder(makeUser({ subscriptionPlan: "pro" }))} />, {
      route: linkTo(LONG_CALL),
    });
    const locked = screen.getByTestId("strategy-builder-locked");
    expect(within(locked).getByText("Premium")).toBeInTheDocument();
    expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
    await new Promise((r) => setTimeout(r, 500));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith("/api/structures"))).toEqual([]);
  });

  it("fills the legs from a template", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked={includesStrategyBuilder(makeUser({ subscriptionPlan: "premium" }))} />, {
      route: "/strategy-builder",
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    await user.selectOptions(screen.getByLabelText("Template"), "Iron condor");
    await user.click(screen.getByRole("button", { name: "Use template" }));
    await waitFor(() => expect(screen.getAllByTestId("leg")).toHaveLength(4));
    expect(bodyOf(fetchMock, "/api/structures/template")).toEqual({
      symbol: "AAPL",
      template: "iron-condor",
      exercise: "american",
      contracts: 1,
    });
    const legs = screen.getAllByTestId("leg");
    expect(within(legs[0]).getByLabelText("Strike ($)")).toHaveValue(180);
    expect(within(legs[3]).getByLabelText("Side")).toHaveValue("long");
    expect(within(legs[2]).getByLabelText("Instrument")).toHaveValue("call");
  });

  it("shows the analysis: Unlimited max profit, the probability as a percentage, the breakevens", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked />, { route: linkTo(LONG_CALL) });
    const results = await screen.findByTestId("analysis-results", {}, { timeout: 3000 });
    expect(within(screen.getByTestId("max-profit")).getByText("Unlimited")).toBeInTheDocument();
    expect(within(screen.getByTestId("max-loss")).getByText("-$550.00")).toBeInTheDocument();
    expect(within(screen.getByTestId("probability-of-profit")).getByText("42.4%")).toBeInTheDocument();
    expect(within(screen.getByTestId("breakevens")).getByText("$205.50")).toBeInTheDocument();
    expect(within(screen.getByTestId("net-premium")).getByText("Net debit")).toBeInTheDocument();
    expect(within(results).getByTestId("payoff-chart")).toBeInTheDocument();
    const grid = screen.getByRole("table");
    expect(within(grid).getAllByRole("columnheader")).toHaveLength(4);
    expect(within(grid).getByText("+$500.00")).toHaveClass("text-positive-strong");
    expect(within(grid).getByText("-$400.00")).toHaveClass("text-destructive-strong");
    expect(bodyOf(fetchMock, "/api/structures/analysis")).toEqual({ symbol: "AAPL", exercise: "american", legs: LONG_CALL });
  });

  it("puts a 422 on legs[0].strike by that leg's strike", async () => {
    api({
      analysis: () =>
        problem(422, "Unprocessable Entity", "The position was refused.", [
          { field: "legs[0].strike", message: "A strike is in whole cents." },
        ]),
    });
    renderWithProviders(<StrategyBuilderPage unlocked />, { route: linkTo(LONG_CALL) });
    const leg = (await screen.findAllByTestId("leg"))[0];
    const strike = within(leg).getByLabelText("Strike ($)");
    await waitFor(() => expect(strike).toHaveAttribute("aria-invalid", "true"), { timeout: 3000 });
    expect(strike).toHaveAccessibleDescription("A strike is in whole cents.");
    expect(screen.getByRole("alert")).toHaveTextContent("The position was refused");
  });
});

describe("StrategyBuilderPage: Save to portfolio", () => {
  const premium = () => includesStrategyBuilder(makeUser({ subscriptionPlan: "premium" }));

  it("is offered once there are legs to analyse", async () => {
    api();
    renderWithProviders(<StrategyBuilderPage unlocked={premium()} />, { route: "/strategy-builder" });
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    expect(screen.queryByRole("button", { name: "Save to portfolio" })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Add leg" }));
    // A new leg has no strike or expiry yet: nothing to save.
    expect(screen.queryByRole("button", { name: "Save to portfolio" })).not.toBeInTheDocument();
  });

  it("saves a template's legs with the template and exercise, then says so with the way to the portfolio", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked={premium()} />, { route: "/strategy-builder" });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    await user.selectOptions(screen.getByLabelText("Template"), "Iron condor");
    await user.click(screen.getByRole("button", { name: "Use template" }));
    await waitFor(() => expect(screen.getAllByTestId("leg")).toHaveLength(4));
    const name = screen.getByLabelText("Name (optional)");
    // Left empty, the server names it as the placeholder says.
    expect(name).toHaveAttribute("placeholder", "AAPL iron condor");
    await user.click(screen.getByRole("button", { name: "Save to portfolio" }));
    expect(await screen.findByText("Saved to your portfolio")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/portfolio/structures")).toEqual({
      symbol: "AAPL",
      legs: CONDOR,
      exercise: "american",
      template: "iron-condor",
    });
    const status = screen.getByText(/Saved to your portfolio as/);
    expect(status).toHaveTextContent("Saved to your portfolio as “AAPL iron condor”.");
    await user.click(within(status).getByRole("link", { name: "View portfolio" }));
    expect(screen.getByTestId("location")).toHaveTextContent("/portfolio");
  });

  it("sends the legs as edited, without the template once a leg changed, and the name typed", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked={premium()} />, { route: "/strategy-builder" });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    await user.click(screen.getByRole("button", { name: "Use template" }));
    await waitFor(() => expect(screen.getAllByTestId("leg")).toHaveLength(4));
    await user.click(screen.getByRole("button", { name: "Remove leg 4" }));
    await user.click(screen.getByRole("radio", { name: "European" }));
    expect(screen.getByLabelText("Name (optional)")).toHaveAttribute("placeholder", "AAPL custom (3 legs)");
    await user.type(screen.getByLabelText("Name (optional)"), "  Hedged short strangle ");
    await user.click(screen.getByRole("button", { name: "Save to portfolio" }));
    expect(await screen.findByText("Saved to your portfolio")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/portfolio/structures")).toEqual({
      symbol: "AAPL",
      legs: CONDOR.slice(0, 3),
      exercise: "european",
      name: "Hedged short strangle",
    });
  });

  it("shows a 422's messages by the leg field and the name they name", async () => {
    api({
      save: () =>
        problem(422, "Unprocessable Entity", "The position was refused.", [
          { field: "legs[1].expirationDate", message: "A trading day after today, within three years." },
          { field: "name", message: "At most 80 characters" },
        ]),
    });
    renderWithProviders(<StrategyBuilderPage unlocked={premium()} />, { route: linkTo(CONDOR) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save to portfolio" }));
    const expiry = within(screen.getAllByTestId("leg")[1]).getByLabelText("Expiration");
    await waitFor(() => expect(expiry).toHaveAttribute("aria-invalid", "true"));
    expect(expiry).toHaveAccessibleDescription("A trading day after today, within three years.");
    expect(within(screen.getAllByTestId("leg")[0]).getByLabelText("Expiration")).not.toHaveAttribute("aria-invalid");
    const name = screen.getByLabelText("Name (optional)");
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("At most 80 characters");
    expect(within(screen.getByTestId("save-to-portfolio")).getByRole("alert")).toHaveTextContent(
      "The position was not saved: check the marked fields.",
    );
    expect(screen.queryByText("Saved to your portfolio")).not.toBeInTheDocument();
  });

  it("says why when the limit of open positions is reached", async () => {
    api({
      save: () => problem(409, "Conflict", "You hold 100 open multi-leg positions. Delete one to save another."),
    });
    renderWithProviders(<StrategyBuilderPage unlocked={premium()} />, { route: linkTo(CONDOR) });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Save to portfolio" }));
    expect(await within(screen.getByTestId("save-to-portfolio")).findByRole("alert")).toHaveTextContent(
      "You hold 100 open multi-leg positions. Delete one to save another.",
    );
  });
});

describe("StrategyBuilderPage: Pick from chain", () => {
  /** The chain the app hands in (src/app/routes/strategy-builder.tsx). */
  const chainPicker = (props: ChainPickerProps) => <OptionChainPicker {...props} />;

  it("adds a leg per quote picked: bought at the ask, sold at the bid, with the chain's terms", async () => {
    const fetchMock = api();
    renderWithProviders(<StrategyBuilderPage unlocked chainPicker={chainPicker} />, { route: "/strategy-builder" });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    await user.click(screen.getByRole("button", { name: "Pick from chain" }));
    const dialog = await screen.findByRole("dialog", { name: "Pick from the AAPL chain" });
    // A phone's layout in jsdom: calls first, puts on the switch.
    await user.click(await within(dialog).findByRole("button", { name: "Buy the AAPL Dec 18, 2026 $250.00 call at the ask, $8.40" }));
    expect(within(dialog).getByTestId("pick-status")).toHaveTextContent(
      "Leg 1 of 8 added: Buy the AAPL Dec 18, 2026 $250.00 call at the ask, $8.40.",
    );
    await user.click(within(dialog).getByRole("radio", { name: "Puts" }));
    await user.click(within(dialog).getByRole("button", { name: "Sell the AAPL Dec 18, 2026 $245.00 put at the bid, $3.00" }));
    expect(within(dialog).getByTestId("pick-status")).toHaveTextContent(
      "Leg 2 of 8 added: Sell the AAPL Dec 18, 2026 $245.00 put at the bid, $3.00.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Done" }));

    const legs = screen.getAllByTestId("leg");
    expect(legs).toHaveLength(2);
    const values = (leg: HTMLElement) =>
      ["Instrument", "Side", "Contracts", "Strike ($)", "Expiration", "Entry price ($/share)", "Implied vol (%)"].map((label) =>
        String((within(leg).getByLabelText(label) as HTMLInputElement).value),
      );
    expect(values(legs[0])).toEqual(["call", "long", "1", "250", "2026-12-18", "8.40", "25.34"]);
    expect(values(legs[1])).toEqual(["put", "short", "1", "245", "2026-12-18", "3.00", "25.34"]);
    await waitFor(() =>
      expect(bodyOf(fetchMock, "/api/structures/analysis")).toEqual({
        symbol: "AAPL",
        exercise: "american",
        legs: [
          { instrument: "call", side: "long", quantity: 1, strike: 250, expirationDate: "2026-12-18", entryPrice: 8.4, volatility: 0.2534 },
          { instrument: "put", side: "short", quantity: 1, strike: 245, expirationDate: "2026-12-18", entryPrice: 3, volatility: 0.2534 },
        ],
      }),
    );
  });

  it("refuses more than eight legs", async () => {
    api();
    const eight = Array.from({ length: MAX_LEGS }, () => LONG_CALL[0]);
    renderWithProviders(<StrategyBuilderPage unlocked chainPicker={chainPicker} />, { route: linkTo(eight) });
    await waitFor(() => expect(screen.getAllByTestId("leg")).toHaveLength(8));
    expect(screen.getByRole("button", { name: "Pick from chain" })).toBeDisabled();
  });

  it("is not offered without a chain to pick from", async () => {
    api();
    renderWithProviders(<StrategyBuilderPage unlocked />, { route: "/strategy-builder" });
    await waitFor(() => expect(screen.getByLabelText("Symbol")).toHaveValue("AAPL"));
    expect(screen.queryByRole("button", { name: "Pick from chain" })).not.toBeInTheDocument();
  });
});
