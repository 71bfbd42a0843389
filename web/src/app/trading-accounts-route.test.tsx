import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TradingAccounts } from "@/lib/api/models";
import { signedInApi } from "@/test/fixtures";
import { makeTradingAccount, makeTradingAccounts, tradingAccountsServer } from "@/test/trading-account-fixtures";
import { jsonResponse, makeUser, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

// Trading accounts in the signed-in app: the header's account menu on every page, a switch
// reaching what a page already shows, and Settings › Trading accounts.

beforeEach(() => {
  // jsdom has no ResizeObserver; Radix measures a switch inside a form with one.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

const main = makeTradingAccount({ name: "Main", current: true, investmentCapital: 1000, maxPositionSize: 100 });
const ira = makeTradingAccount({ name: "IRA", investmentCapital: 25_000, maxPositionSize: 2_500, riskTolerance: "low" });

/** A Premium user whose preferences (GET /api/auth/me) are the current account's. */
function signedIn(initial: TradingAccounts) {
  const server = tradingAccountsServer(initial, (url) => {
    const current = server.state().accounts.find((a) => a.current);
    if (url === "/api/auth/me")
      return jsonResponse(
        makeUser({
          subscriptionPlan: "premium",
          subscriptionStatus: "active",
          subscriptionExpiresAt: null,
          investmentCapital: current?.investmentCapital,
          maxPositionSize: current?.maxPositionSize,
          riskTolerance: current?.riskTolerance,
          preferredStrategies: current?.preferredStrategies.join(","),
        }),
      );
    if (url.startsWith("/api/accounts")) return undefined;
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
  return server;
}

describe("trading accounts in the app", () => {
  it("switches from the header, and the page open shows the new account's preferences", async () => {
    signedIn(makeTradingAccounts([main, ira], 10));
    renderWithProviders(<AppRoutes />, { route: "/preferences" });
    expect(await screen.findByLabelText("Investment capital (USD)")).toHaveValue(1000);

    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Trading account: Main" }));
    await user.click(within(await screen.findByRole("menu")).getByRole("menuitemradio", { name: "IRA" }));

    expect(await screen.findByText("Switched to IRA")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Investment capital (USD)")).toHaveValue(25000));
    expect(screen.getByLabelText("Max position size (USD)")).toHaveValue(2500);
    expect(screen.getByLabelText("Risk tolerance")).toHaveDisplayValue("Conservative");
    expect(screen.getByRole("button", { name: "Trading account: IRA" })).toBeInTheDocument();
  });

  it("has no account menu for one account on a plan that holds one", async () => {
    signedIn(makeTradingAccounts([main], 1));
    renderWithProviders(<AppRoutes />, { route: "/settings?tab=accounts" });
    expect(await screen.findByRole("listitem", { name: "Main" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Trading account/ })).not.toBeInTheDocument();
  });

  it("leads from the header's Manage accounts to Settings › Trading accounts", async () => {
    signedIn(makeTradingAccounts([main, ira], 10));
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Trading account: Main" }));
    await user.click(within(await screen.findByRole("menu")).getByRole("menuitem", { name: "Manage accounts" }));

    expect(await screen.findByRole("tab", { name: "Trading accounts" })).toHaveAttribute("aria-selected", "true");
    const card = await screen.findByRole("region", { name: "Trading accounts" });
    expect(await within(card).findByTestId("account-count")).toHaveTextContent("You hold 2 of 10 accounts.");
    expect(within(card).getByRole("listitem", { name: "IRA" })).toBeInTheDocument();
  });
});
