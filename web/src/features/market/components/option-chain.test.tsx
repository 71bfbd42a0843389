import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeOptionChain } from "@/test/options-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { OptionChain, OptionChainPicker } from "./option-chain";

const CHAIN_URL = "/api/stock-prices/AAPL/options";

/** Makes `(min-width: 768px)` match, as on a tablet or a desktop. */
function wideScreen() {
  Object.defineProperty(window, "matchMedia", {
    configurable: true,
    value: (query: string) => ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, "matchMedia");
});

/** The chain at the asked expiration (the default one without `?expiration=`). */
function chainApi() {
  return mockFetch((url) => {
    if (!url.startsWith(CHAIN_URL)) return problem(404, "Not Found");
    const asked = new URLSearchParams(url.split("?")[1] ?? "").get("expiration");
    return jsonResponse(makeOptionChain(asked ? { expiration: asked } : {}));
  });
}

function Controlled({ initial = null, onChange }: { initial?: string | null; onChange?: (e: string | null) => void }) {
  const [expiration, setExpiration] = useState<string | null>(initial);
  return (
    <OptionChain
      symbol="AAPL"
      expiration={expiration}
      onExpirationChange={(next) => {
        onChange?.(next);
        setExpiration(next);
      }}
    />
  );
}

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole("columnheader")
    .map((h) => h.textContent);

describe("OptionChain", () => {
  it("shows calls left and puts right of each strike, the at-the-money strike marked, with the quotes' facts", async () => {
    wideScreen();
    chainApi();
    renderWithProviders(<Controlled />);
    const table = await screen.findByRole("table", { name: /^AAPL calls and puts expiring Dec 18, 2026, by strike/ });
    expect(headers(table)).toEqual([
      "Calls",
      "Strike",
      "Puts",
      "OICall open interest",
      "DeltaCall delta",
      "IVCall implied volatility",
      "BidCall bid",
      "AskCall ask",
      "BidPut bid",
      "AskPut ask",
      "IVPut implied volatility",
      "DeltaPut delta",
      "OIPut open interest",
    ]);
    expect(screen.getByRole("columnheader", { name: "Call bid" })).toBeInTheDocument();
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(2 + 5);
    const atm = screen.getByRole("rowheader", { name: "250.00 (at the money)" });
    expect(atm.closest("tr")).toHaveAttribute("data-testid", "atm-row");
    expect(
      within(atm.closest("tr")!)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["1,002", "0.50", "25.3%", "8.00", "8.40", "5.00", "5.30", "25.3%", "-0.50", "2,002"]);
    expect(screen.getByText("Underlying").nextElementSibling).toHaveTextContent("$248.10");
    expect(screen.getByText("Provider").nextElementSibling).toHaveTextContent("Simulated market");
    expect(screen.getByText("Exercise").nextElementSibling).toHaveTextContent("American");
    expect(screen.getByText("As of").nextElementSibling).toHaveTextContent(/Nov 23, 2026/);
    // No Calls/Puts switch where both sides fit.
    expect(screen.queryByRole("radio", { name: "Puts" })).not.toBeInTheDocument();
  });

  it("lists the expirations, defaults to the one shown, and asks for another when chosen", async () => {
    wideScreen();
    const fetchMock = chainApi();
    const onChange = vi.fn();
    renderWithProviders(<Controlled onChange={onChange} />);
    const select = await screen.findByRole("combobox", { name: "Expiration" });
    expect(select).toHaveValue("2026-12-18");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.getAttribute("value")),
    ).toEqual(["2026-12-04", "2026-12-18", "2027-01-15"]);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([CHAIN_URL]);

    await userEvent.setup().selectOptions(select, "2027-01-15");
    expect(onChange).toHaveBeenCalledWith("2027-01-15");
    expect(await screen.findByRole("table", { name: /expiring Jan 15, 2027/ })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(`${CHAIN_URL}?expiration=2027-01-15`);
    expect(screen.getByRole("combobox", { name: "Expiration" })).toHaveValue("2027-01-15");
  });

  it("shows gamma, theta and vega on request", async () => {
    wideScreen();
    chainApi();
    renderWithProviders(<Controlled />);
    await screen.findByRole("table");
    expect(screen.queryByRole("columnheader", { name: "Put gamma" })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("switch", { name: "Gamma, theta, vega" }));
    expect(screen.getByRole("columnheader", { name: "Put gamma" })).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "Call theta, dollars per day" })).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "Put vega, dollars per volatility point" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: /gamma, theta and vega/ })).toBeInTheDocument();
  });

  it("on a phone shows the strike and one side, calls or puts as chosen", async () => {
    chainApi();
    renderWithProviders(<Controlled />);
    const table = await screen.findByRole("table", { name: /^AAPL calls expiring/ });
    expect(headers(table)).toEqual([
      "Strike",
      "Calls",
      "BidCall bid",
      "AskCall ask",
      "IVCall implied volatility",
      "DeltaCall delta",
      "OICall open interest",
    ]);
    expect(screen.getByRole("radio", { name: "Calls" })).toBeChecked();

    await userEvent.setup().click(screen.getByRole("radio", { name: "Puts" }));
    const puts = screen.getByRole("table", { name: /^AAPL puts expiring/ });
    expect(headers(puts)).toEqual([
      "Strike",
      "Puts",
      "BidPut bid",
      "AskPut ask",
      "IVPut implied volatility",
      "DeltaPut delta",
      "OIPut open interest",
    ]);
    const atm = screen.getByRole("rowheader", { name: "250.00 (at the money)" }).closest("tr")!;
    expect(
      within(atm)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["5.00", "5.30", "25.3%", "-0.50", "2,002"]);
  });

  it("says a contract is not listed", async () => {
    wideScreen();
    mockFetch(() => jsonResponse(makeOptionChain({ rows: [{ strike: 250, call: null, put: makeOptionChain().rows[0].put }] })));
    renderWithProviders(<Controlled />);
    const row = (await screen.findByRole("rowheader", { name: /^250\.00/ })).closest("tr")!;
    expect(within(row).getAllByText("not listed")).toHaveLength(5);
  });

  it("says when an expiration has no contracts, and keeps the select", async () => {
    mockFetch(() => jsonResponse(makeOptionChain({ rows: [] })));
    renderWithProviders(<Controlled />);
    expect(await screen.findByText("No contracts at this expiration")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Expiration" })).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("says how long to wait after too many chains", async () => {
    mockFetch(() => jsonResponse({ type: "about:blank", title: "Too Many Requests", status: 429 }, 429, { "Retry-After": "12" }));
    renderWithProviders(<Controlled />);
    expect(await screen.findByText("Too many option chains")).toBeInTheDocument();
    expect(screen.getByText("Too many option chains: try again in 12 s.")).toBeInTheDocument();
  });

  it("says a symbol is off the watchlist, and the provider being down in its words", async () => {
    mockFetch(() => problem(404, "Not Found", "No stock AAPL on the watchlist."));
    const { unmount } = renderWithProviders(<Controlled />);
    expect(await screen.findByText("AAPL is not on the watchlist")).toBeInTheDocument();
    unmount();
    mockFetch(() => problem(503, "Service Unavailable", "The market-data provider did not answer."));
    renderWithProviders(<Controlled />);
    expect(await screen.findByText("Option quotes are unavailable right now")).toBeInTheDocument();
    expect(screen.getByText("The market-data provider did not answer.")).toBeInTheDocument();
  });

  it("turns an unlisted expiration's 'Try again' into the server's default", async () => {
    const fetchMock = mockFetch((url) =>
      url.includes("expiration=2020-01-17")
        ? problem(422, "Unprocessable Entity", "expiration: not a listed expiration", [
            { field: "expiration", message: "not a listed expiration" },
          ])
        : jsonResponse(makeOptionChain()),
    );
    const onChange = vi.fn();
    renderWithProviders(<Controlled initial="2020-01-17" onChange={onChange} />);
    expect(await screen.findByText("That expiration is not listed")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(onChange).toHaveBeenCalledWith(null);
    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([`${CHAIN_URL}?expiration=2020-01-17`, CHAIN_URL]);
  });
});

describe("OptionChainPicker", () => {
  it("hands a bought ask or a sold bid to onPick, with the contract's terms", async () => {
    wideScreen();
    chainApi();
    const onPick = vi.fn();
    renderWithProviders(<OptionChainPicker symbol="AAPL" onPick={onPick} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Buy the AAPL Dec 18, 2026 $250.00 call at the ask, $8.40" }));
    expect(onPick).toHaveBeenLastCalledWith({
      symbol: "AAPL",
      right: "call",
      side: "long",
      strike: 250,
      expiration: "2026-12-18",
      price: 8.4,
      impliedVolatility: 0.2534,
    });
    await user.click(screen.getByRole("button", { name: "Sell the AAPL Dec 18, 2026 $255.00 put at the bid, $7.00" }));
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ right: "put", side: "short", strike: 255, price: 7 }));
    expect(screen.getByRole("table", { name: /Choose an ask to buy a contract or a bid to sell one\.$/ })).toBeInTheDocument();

    // Another expiration: the picks carry it.
    await user.selectOptions(screen.getByRole("combobox", { name: "Expiration" }), "2027-01-15");
    await waitFor(() => expect(screen.getByRole("table", { name: /expiring Jan 15, 2027/ })).toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Buy the AAPL Jan 15, 2027 $240.00 call at the ask, $12.40" }));
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ expiration: "2027-01-15", strike: 240, price: 12.4 }));
  });

  it("keeps the quotes but refuses picks when disabled", async () => {
    wideScreen();
    chainApi();
    renderWithProviders(<OptionChainPicker symbol="AAPL" onPick={() => {}} disabled />);
    expect(await screen.findByRole("button", { name: /^Buy the AAPL Dec 18, 2026 \$250\.00 call/ })).toBeDisabled();
  });
});
