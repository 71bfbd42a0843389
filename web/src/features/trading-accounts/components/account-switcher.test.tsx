import { useQuery } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ManualPosition, TradingAccounts, User } from "@/lib/api/models";
import { formatCurrency } from "@/lib/format";
import { queryKeys } from "@/lib/query-keys";
import { makeManualPosition } from "@/test/portfolio-fixtures";
import { makeTradingAccount, makeTradingAccounts, tradingAccountsServer } from "@/test/trading-account-fixtures";
import { jsonResponse, makeUser, problem, renderWithProviders } from "@/test/utils";
import { AccountSwitcher } from "./account-switcher";

afterEach(() => vi.unstubAllGlobals());

const main = makeTradingAccount({ name: "Main", current: true, investmentCapital: 1000 });
const ira = makeTradingAccount({ name: "IRA", investmentCapital: 25_000 });
const paper = makeTradingAccount({ name: "Paper", withinPlan: false });

/** What a page shows of the current account: the user's capital (GET /api/auth/me) and the manual positions' symbols. */
function AccountProbe() {
  const user = useQuery<User>({ queryKey: queryKeys.currentUser() });
  const positions = useQuery<ManualPosition[]>({ queryKey: queryKeys.portfolio.manualPositions.all() });
  return (
    <div data-testid="probe">
      {user.data ? <p>Capital {formatCurrency(user.data.investmentCapital)}</p> : null}
      {positions.data ? <p>Positions: {positions.data.map((p) => p.symbol).join(", ") || "none"}</p> : null}
    </div>
  );
}

/**
 * The accounts server, with the user and the manual positions of whichever account is current:
 * Main holds an AAPL position, the others none.
 */
function server(initial: TradingAccounts, extra?: Parameters<typeof tradingAccountsServer>[1]) {
  const result = tradingAccountsServer(initial, (url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    const current = result.state().accounts.find((a) => a.current);
    if (url === "/api/auth/me") return jsonResponse(makeUser({ investmentCapital: current?.investmentCapital }));
    if (url === "/api/manual-positions") return jsonResponse(current?.name === "Main" ? [makeManualPosition({ symbol: "AAPL" })] : []);
    return undefined;
  });
  return result;
}

function renderSwitcher() {
  const view = renderWithProviders(
    <>
      <AccountSwitcher />
      <AccountProbe />
    </>,
  );
  return { ...view, user: userEvent.setup() };
}

describe("AccountSwitcher (the header's account menu)", () => {
  it("is hidden while the user holds one account on a plan that holds one", async () => {
    server(makeTradingAccounts([main], 1));
    const { queryClient } = renderSwitcher();
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.tradingAccounts())?.status).toBe("success"));
    expect(await screen.findByText("Positions: AAPL")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Trading account/ })).not.toBeInTheDocument();
  });

  it("shows the one account on a plan that holds more, with the way to open others", async () => {
    server(makeTradingAccounts([main], 10));
    const { user } = renderSwitcher();
    await user.click(await screen.findByRole("button", { name: "Trading account: Main" }));
    const menu = await screen.findByRole("menu");
    expect(within(menu).getByRole("menuitemradio", { name: "Main" })).toHaveAttribute("aria-checked", "true");
    expect(within(menu).getByRole("menuitem", { name: "Manage accounts" })).toHaveAttribute("href", "/settings?tab=accounts");
  });

  it("shows the accounts a downgraded plan no longer holds, marked", async () => {
    server(makeTradingAccounts([main, paper], 1));
    const { user } = renderSwitcher();
    await user.click(await screen.findByRole("button", { name: "Trading account: Main" }));
    const menu = await screen.findByRole("menu");
    expect(within(menu).getByRole("menuitemradio", { name: /^Paper/ })).toHaveTextContent("PaperBeyond your plan");
  });

  it("lists the accounts, the current one checked, and switches to the one chosen", async () => {
    const { fetchMock } = server(makeTradingAccounts([main, ira, paper], 10));
    const { user } = renderSwitcher();
    const trigger = await screen.findByRole("button", { name: "Trading account: Main" });
    expect(trigger).toHaveTextContent("Main");
    expect(await screen.findByText("Positions: AAPL")).toBeInTheDocument();
    expect(screen.getByText("Capital $1,000.00")).toBeInTheDocument();

    await user.click(trigger);
    const menu = await screen.findByRole("menu");
    const items = within(menu).getAllByRole("menuitemradio");
    expect(items.map((item) => item.textContent)).toEqual(["Main", "IRA", "PaperBeyond your plan"]);
    expect(items.map((item) => item.getAttribute("aria-checked"))).toEqual(["true", "false", "false"]);

    await user.click(within(menu).getByRole("menuitemradio", { name: "IRA" }));
    expect(await screen.findByText("Switched to IRA")).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([url, init]) => url === "/api/accounts/current" && init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ id: ira.id });

    // Everything the page showed of Main is read again: IRA's capital and its (empty) portfolio.
    expect(screen.getByRole("button", { name: "Trading account: IRA" })).toBeInTheDocument();
    expect(screen.getByText("Capital $25,000.00")).toBeInTheDocument();
    expect(screen.getByText("Positions: none")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Trading account: IRA" }));
    expect(within(await screen.findByRole("menu")).getByRole("menuitemradio", { name: "IRA" })).toHaveAttribute("aria-checked", "true");
  });

  it("says why when the switch is refused, and stays on the account it was", async () => {
    server(makeTradingAccounts([main, ira], 10), (url, init) =>
      url === "/api/accounts/current" && init.method === "PUT" ? problem(404, "Not Found", "No such account of yours.") : undefined,
    );
    const { user } = renderSwitcher();
    await user.click(await screen.findByRole("button", { name: "Trading account: Main" }));
    await user.click(within(await screen.findByRole("menu")).getByRole("menuitemradio", { name: "IRA" }));
    expect(await screen.findByText("Account Not Switched")).toBeInTheDocument();
    expect(screen.getByText("No such account of yours.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Trading account: Main" })).toBeInTheDocument();
    expect(screen.getByText("Positions: AAPL")).toBeInTheDocument();
  });

  it("shows a long name whole to assistive technology and in its tooltip, truncated on screen", async () => {
    const long = makeTradingAccount({ name: "Retirement savings held at the credit union", current: true });
    server(makeTradingAccounts([long, ira], 10));
    renderSwitcher();
    const trigger = await screen.findByRole("button", { name: "Trading account: Retirement savings held at the credit union" });
    expect(trigger).toHaveAttribute("title", "Retirement savings held at the credit union");
    expect(within(trigger).getByText("Retirement savings held at the credit union")).toHaveClass("truncate");
  });
});
