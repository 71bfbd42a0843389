import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TradingAccounts } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import {
  BROKER_PLAN_REFUSAL,
  CURRENT_REFUSAL,
  makeTradingAccount,
  makeTradingAccounts,
  PREMIUM_REFUSAL,
  STANDING_ORDERS_REFUSAL,
  tradingAccountsServer,
} from "@/test/trading-account-fixtures";
import { jsonResponse, makePlanCatalogue, type mockFetch, problem, renderWithProviders } from "@/test/utils";
import { TradingAccountsTab } from "./trading-accounts-tab";

beforeEach(() => {
  // jsdom has no ResizeObserver; Radix measures a switch inside a form (the automation's) with one.
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

// Main's fills have paid $909 and $1.95 in commissions: its cash is below its capital.
const main = makeTradingAccount({ name: "Main", current: true, investmentCapital: 10_000, cash: 9_089.05, maxPositionSize: 500 });
const ira = makeTradingAccount({
  name: "IRA",
  investmentCapital: 25_000,
  maxPositionSize: 2_500,
  riskTolerance: "low",
  preferredStrategies: ["Mean Reversion"],
  automate: false,
});
const paper = makeTradingAccount({ name: "Paper", preferredStrategies: [], withinPlan: false });

function renderTab(initial: TradingAccounts, extra?: Parameters<typeof tradingAccountsServer>[1]) {
  const server = tradingAccountsServer(initial, extra);
  renderWithProviders(<TradingAccountsTab plans={makePlanCatalogue().plans} />);
  return { ...server, user: userEvent.setup() };
}

/** The list's entry for the account named `name`. */
async function row(name: string) {
  return screen.findByRole("listitem", { name });
}

/** The body of the first `method` request to `url`, parsed. */
function sent(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string): unknown {
  const call = fetchMock.mock.calls.find(([input, init]) => String(input) === url && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

type Events = ReturnType<typeof userEvent.setup>;

/** Replaces what `input` holds with `text`, as pasted. */
async function fill(user: Events, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
}

/** The label, value pairs an entry shows. */
function figures(item: HTMLElement) {
  return within(item)
    .getAllByRole("term")
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
}

async function openNewAccountDialog(user: Events) {
  await user.click(await screen.findByRole("button", { name: "Open an account" }));
  return screen.findByRole("dialog", { name: "Open an account" });
}

describe("TradingAccountsTab (Settings › Trading accounts)", () => {
  it("lists each account with its figures, the current one and the one beyond the plan marked", async () => {
    renderTab(makeTradingAccounts([main, ira, paper], 10));
    expect(screen.getByLabelText("Loading your trading accounts")).toHaveAttribute("aria-busy", "true");

    const first = await row("Main");
    expect(await screen.findByTestId("account-count")).toHaveTextContent("You hold 3 of 10 accounts.");
    expect(within(first).getByText("Current")).toBeInTheDocument();
    expect(figures(first)).toEqual([
      "Capital: $10,000.00",
      "Cash: $9,089.05",
      "Max position size: $500.00",
      "Risk tolerance: Moderate",
      "Preferred strategies: Momentum, Breakout",
      "Broker: Paper broker (built in)",
    ]);
    expect(within(first).getByRole("switch", { name: "Automation Main" })).toBeChecked();
    expect(within(first).queryByRole("button", { name: "Switch to this account" })).not.toBeInTheDocument();

    const second = await row("IRA");
    expect(within(second).queryByText("Current")).not.toBeInTheDocument();
    expect(figures(second)).toEqual([
      "Capital: $25,000.00",
      "Cash: $25,000.00",
      "Max position size: $2,500.00",
      "Risk tolerance: Conservative",
      "Preferred strategies: Mean Reversion",
      "Broker: Paper broker (built in)",
    ]);
    expect(within(second).getByRole("switch", { name: "Automation IRA" })).not.toBeChecked();
    expect(within(second).queryByText("Beyond your plan")).not.toBeInTheDocument();

    const third = await row("Paper");
    expect(within(third).getByText("Beyond your plan")).toBeInTheDocument();
    expect(third).toHaveTextContent("The automation does not open positions in this one");
    expect(figures(third)).toContain("Preferred strategies: None");
    expect(within(third).getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");
  });

  it("says when the accounts cannot be read and offers to try again", async () => {
    let fail = true;
    const { user } = renderTab(makeTradingAccounts([main], 10), (url, init) =>
      url === "/api/accounts" && (init.method ?? "GET") === "GET" && fail ? new Response("", { status: 500 }) : undefined,
    );
    expect(await screen.findByText("Failed to fetch your trading accounts")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await row("Main")).toBeInTheDocument();
  });

  it("opens an account with the values entered, and lists it", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main], 10));
    const dialog = await openNewAccountDialog(user);
    // A new account starts from the server's defaults.
    expect(within(dialog).getByLabelText("Investment capital (USD)")).toHaveValue(1000);
    expect(within(dialog).getByLabelText("Max position size (USD)")).toHaveValue(100);
    expect(within(dialog).getByRole("checkbox", { name: "Momentum" })).toBeChecked();
    expect(within(dialog).getByRole("switch", { name: "Automation" })).toBeChecked();

    await fill(user, within(dialog).getByLabelText("Name"), "  IRA ");
    await fill(user, within(dialog).getByLabelText("Investment capital (USD)"), "25000");
    await fill(user, within(dialog).getByLabelText("Max position size (USD)"), "2500.50");
    await user.selectOptions(within(dialog).getByLabelText("Risk tolerance"), "Aggressive");
    await user.click(within(dialog).getByRole("checkbox", { name: "Breakout" }));
    await user.click(within(dialog).getByRole("checkbox", { name: "Volatility" }));
    await user.click(within(dialog).getByRole("switch", { name: "Automation" }));
    await user.click(within(dialog).getByRole("button", { name: "Open account" }));

    expect(await screen.findByText("Account Opened")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(sent(fetchMock, "POST", "/api/accounts")).toEqual({
      name: "IRA",
      investmentCapital: 25000,
      maxPositionSize: 2500.5,
      riskTolerance: "high",
      preferredStrategies: ["Momentum", "Volatility"],
      automate: false,
    });
    const created = await row("IRA");
    expect(figures(created)).toEqual([
      "Capital: $25,000.00",
      "Cash: $25,000.00",
      "Max position size: $2,500.50",
      "Risk tolerance: Aggressive",
      "Preferred strategies: Momentum, Volatility",
      "Broker: Paper broker (built in)",
    ]);
    expect(within(created).getByRole("switch", { name: "Automation IRA" })).not.toBeChecked();
    await waitFor(() => expect(screen.getByTestId("account-count")).toHaveTextContent("You hold 2 of 10 accounts."));
  });

  it("checks the rules before sending", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main], 10));
    const dialog = await openNewAccountDialog(user);
    await fill(user, within(dialog).getByLabelText("Max position size (USD)"), "5000");
    await user.click(within(dialog).getByRole("button", { name: "Open account" }));
    expect(await within(dialog).findByText("Enter a name")).toBeInTheDocument();
    expect(within(dialog).getByText("The maximum position size cannot be more than the investment capital")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("shows the server's field error under the field it names (422)", async () => {
    const { user } = renderTab(makeTradingAccounts([main], 10), (url, init) =>
      url === "/api/accounts" && init.method === "POST"
        ? problem(422, "Unprocessable Entity", "A field is not valid.", [
            { field: "investmentCapital", message: "The investment capital can have at most two decimals" },
          ])
        : undefined,
    );
    const dialog = await openNewAccountDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "IRA");
    await user.click(within(dialog).getByRole("button", { name: "Open account" }));

    const capital = within(dialog).getByLabelText("Investment capital (USD)");
    await waitFor(() => expect(capital).toHaveAttribute("aria-invalid", "true"));
    expect(capital).toHaveAccessibleDescription("The investment capital can have at most two decimals");
    expect(await screen.findByText("Account Not Opened")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Open an account" })).toBeInTheDocument();
  });

  it("shows a taken name under the name (409)", async () => {
    const { user } = renderTab(makeTradingAccounts([main], 10));
    const dialog = await openNewAccountDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "main");
    await user.click(within(dialog).getByRole("button", { name: "Open account" }));
    expect(await within(dialog).findByText("You already have an account named main")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
  });

  it("disables opening another once every account the plan holds is open, and says why", async () => {
    renderTab(makeTradingAccounts([main, ira], 2));
    const open = await screen.findByRole("button", { name: "Open an account" });
    expect(open).toBeDisabled();
    expect(open).toHaveAccessibleDescription("You hold the most accounts your plan allows. Delete one to open another.");
  });

  it("edits an account with the same form", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, ira], 10));
    await user.click(within(await row("IRA")).getByRole("button", { name: "Edit" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit IRA" });
    expect(within(dialog).getByLabelText("Name")).toHaveValue("IRA");
    expect(within(dialog).getByLabelText("Investment capital (USD)")).toHaveValue(25000);
    expect(within(dialog).getByLabelText("Risk tolerance")).toHaveDisplayValue("Conservative");
    expect(within(dialog).getByRole("checkbox", { name: "Mean Reversion" })).toBeChecked();
    expect(within(dialog).getByRole("checkbox", { name: "Momentum" })).not.toBeChecked();

    await fill(user, within(dialog).getByLabelText("Name"), "Roth IRA");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Account Saved")).toBeInTheDocument();
    expect(sent(fetchMock, "PATCH", `/api/accounts/${ira.id}`)).toMatchObject({
      name: "Roth IRA",
      investmentCapital: 25000,
      riskTolerance: "low",
    });
    expect(await row("Roth IRA")).toBeInTheDocument();
    expect(screen.queryByRole("listitem", { name: "IRA" })).not.toBeInTheDocument();
  });

  it("switches the automation on and off inline", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, ira], 10));
    const automation = within(await row("IRA")).getByRole("switch", { name: "Automation IRA" });
    await user.click(automation);
    expect(await screen.findByText("Automation On")).toBeInTheDocument();
    await waitFor(() => expect(automation).toBeChecked());
    expect(sent(fetchMock, "PATCH", `/api/accounts/${ira.id}`)).toEqual({ automate: true });
  });

  it("stops an account's orders with its kill switch, badges it, and resumes them", async () => {
    const halted = makeTradingAccount({ name: "Halted", ordersHalted: true });
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, ira, halted], 10));

    const haltedRow = await row("Halted");
    expect(within(haltedRow).getByText("Orders stopped")).toBeInTheDocument();
    expect(within(haltedRow).getByRole("switch", { name: "Kill switch: stop new orders Halted" })).toBeChecked();

    const iraRow = await row("IRA");
    expect(within(iraRow).queryByText("Orders stopped")).not.toBeInTheDocument();
    const killSwitch = within(iraRow).getByRole("switch", { name: "Kill switch: stop new orders IRA" });
    expect(killSwitch).not.toBeChecked();
    expect(killSwitch).toHaveAccessibleDescription(
      "While on, the automation sends this account no new orders and its standing orders are cancelled.",
    );
    await user.click(killSwitch);
    expect(await screen.findByText("Orders Stopped")).toBeInTheDocument();
    expect(sent(fetchMock, "PATCH", `/api/accounts/${ira.id}`)).toEqual({ ordersHalted: true });
    await waitFor(() => expect(killSwitch).toBeChecked());
    expect(within(iraRow).getByText("Orders stopped")).toBeInTheDocument();
    // The automation switch is a separate one, left as it was.
    expect(within(iraRow).getByRole("switch", { name: "Automation IRA" })).not.toBeChecked();

    await user.click(within(haltedRow).getByRole("switch", { name: "Kill switch: stop new orders Halted" }));
    expect(await screen.findByText("Orders Resumed")).toBeInTheDocument();
    expect(sent(fetchMock, "PATCH", `/api/accounts/${halted.id}`)).toEqual({ ordersHalted: false });
    await waitFor(() => expect(within(haltedRow).queryByText("Orders stopped")).not.toBeInTheDocument());
  });

  it("says when the kill switch could not be changed, and leaves it as it was", async () => {
    const { user } = renderTab(makeTradingAccounts([main, ira], 10), (url, init) =>
      url === `/api/accounts/${ira.id}` && init.method === "PATCH" ? problem(500, "Internal Server Error", "Try again later.") : undefined,
    );
    const killSwitch = within(await row("IRA")).getByRole("switch", { name: "Kill switch: stop new orders IRA" });
    await user.click(killSwitch);
    expect(await screen.findByText("Kill Switch Not Changed")).toBeInTheDocument();
    expect(screen.getByText("Try again later.")).toBeInTheDocument();
    expect(killSwitch).not.toBeChecked();
  });

  it("switches to another account", async () => {
    const { user } = renderTab(makeTradingAccounts([main, ira], 10));
    await user.click(within(await row("IRA")).getByRole("button", { name: "Switch to this account" }));
    expect(await screen.findByText("Switched to IRA")).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole("listitem", { name: "IRA" })).getByText("Current")).toBeInTheDocument());
    expect(within(screen.getByRole("listitem", { name: "Main" })).queryByText("Current")).not.toBeInTheDocument();
  });

  it("refuses to delete the current account with the server's reason, and keeps it", async () => {
    const { user } = renderTab(makeTradingAccounts([main, ira], 10));
    await user.click(within(await row("Main")).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete Main?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete account" }));
    expect(await screen.findByText(CURRENT_REFUSAL)).toBeInTheDocument();
    expect(screen.getByRole("alertdialog", { name: "Delete Main?" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(await row("Main")).toBeInTheDocument();
    expect(screen.getByTestId("account-count")).toHaveTextContent("You hold 2 of 10 accounts.");
  });

  it("deletes another account after asking", async () => {
    const { user } = renderTab(makeTradingAccounts([main, ira], 10));
    await user.click(within(await row("IRA")).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete IRA?" });
    expect(dialog).toHaveTextContent("Its closed positions and its history are deleted with it. This cannot be undone.");
    await user.click(within(dialog).getByRole("button", { name: "Delete account" }));
    expect(await screen.findByText("Account Deleted")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "IRA" })).not.toBeInTheDocument());
    expect(screen.getByTestId("account-count")).toHaveTextContent("You hold 1 of 10 accounts.");
  });

  it("offers Premium instead of a second account on a plan that holds one", async () => {
    renderTab(makeTradingAccounts([main], 1));
    const upgrade = await screen.findByRole("region", { name: /More trading accounts/ });
    expect(upgrade).toHaveTextContent("Your plan holds one trading account. Premium holds up to 10");
    expect(within(upgrade).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
    expect(screen.queryByRole("button", { name: "Open an account" })).not.toBeInTheDocument();
    expect(screen.getByTestId("account-count")).toHaveTextContent("You hold 1 of 1 account.");
  });

  it("says how many accounts a downgraded plan holds", async () => {
    renderTab(makeTradingAccounts([main, { ...paper, withinPlan: false }], 1));
    expect(await screen.findByTestId("account-count")).toHaveTextContent("You hold 2 accounts; your plan holds 1.");
    expect(await row("Paper")).toHaveTextContent("Your plan holds 1 account, the oldest first.");
  });

  it("shows the server's reason when a plan refuses another account (403)", async () => {
    // The list says 10 (read before a downgrade); the server's answer wins.
    const { user } = renderTab(makeTradingAccounts([main], 10), (url, init) =>
      url === "/api/accounts" && init.method === "POST" ? problem(403, "Forbidden", PREMIUM_REFUSAL) : undefined,
    );
    const dialog = await openNewAccountDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "IRA");
    await user.click(within(dialog).getByRole("button", { name: "Open account" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent(PREMIUM_REFUSAL);
    expect(within(alert).getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");
  });
});

describe("TradingAccountsTab: an account's broker", () => {
  const alpacaPaper = makeTradingAccount({ name: "Alpaca Paper", broker: { name: "alpaca", endpoint: "paper", keyHint: "WXYZ" } });
  const alpacaLive = makeTradingAccount({ name: "Alpaca Live", broker: { name: "alpaca", endpoint: "live", keyHint: "ABCD" } });

  /** The "Broker" line of the account named `name`. */
  async function brokerOf(name: string) {
    return within(await row(name)).findByTestId("account-broker");
  }

  async function openConnectDialog(user: Events, name: string) {
    await user.click(within(await brokerOf(name)).getByRole("button", { name: "Connect Alpaca" }));
    return screen.findByRole("dialog", { name: `Connect ${name} to Alpaca` });
  }

  it("shows the paper broker, or Alpaca with its endpoint and key, live marked as real money", async () => {
    renderTab(makeTradingAccounts([main, alpacaPaper, alpacaLive], 10));

    const paperLine = await brokerOf("Main");
    expect(figures(paperLine)).toEqual(["Broker: Paper broker (built in)"]);
    expect(within(paperLine).queryByText("Live money")).not.toBeInTheDocument();
    expect(within(paperLine).getByRole("button", { name: "Connect Alpaca" })).toHaveAccessibleDescription("Main");
    expect(within(paperLine).queryByRole("button", { name: "Disconnect" })).not.toBeInTheDocument();

    const alpacaPaperLine = await brokerOf("Alpaca Paper");
    expect(figures(alpacaPaperLine)).toEqual(["Broker: Alpaca · Paper endpoint · key …WXYZ"]);
    expect(within(alpacaPaperLine).queryByText("Live money")).not.toBeInTheDocument();
    expect(within(alpacaPaperLine).getByRole("button", { name: "Change keys" })).toBeInTheDocument();
    expect(within(alpacaPaperLine).getByRole("button", { name: "Disconnect" })).toBeInTheDocument();

    const liveLine = await brokerOf("Alpaca Live");
    expect(liveLine).toHaveTextContent("Alpaca · Live endpoint · key …ABCD");
    expect(within(liveLine).getByText("Live money")).toBeInTheDocument();
  });

  it("connects an account to Alpaca with exactly the endpoint and keys entered", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, ira], 10));
    const dialog = await openConnectDialog(user, "IRA");

    const endpoint = within(dialog).getByLabelText("Endpoint");
    expect(endpoint).toHaveDisplayValue("Paper (default)");
    expect(endpoint).toHaveAccessibleDescription("Live sends real orders with real money.");
    const secret = within(dialog).getByLabelText("Secret key");
    expect(secret).toHaveAttribute("type", "password");
    expect(secret).toHaveAttribute("autocomplete", "off");
    expect(dialog).toHaveTextContent(
      "Your secret key is stored encrypted and never shown again. Orders for this account then go to Alpaca instead of the paper broker.",
    );

    await user.selectOptions(endpoint, "live");
    await fill(user, within(dialog).getByLabelText("Key ID"), "AKLIVE12ABCD");
    await fill(user, secret, "s3cret/With+Symbols=0123");
    await user.click(within(dialog).getByRole("button", { name: "Connect Alpaca" }));

    expect(await screen.findByText("Alpaca Connected")).toBeInTheDocument();
    expect(sent(fetchMock, "PUT", `/api/accounts/${ira.id}/broker`)).toEqual({
      broker: "alpaca",
      endpoint: "live",
      keyId: "AKLIVE12ABCD",
      secretKey: "s3cret/With+Symbols=0123",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const line = await brokerOf("IRA");
    await waitFor(() => expect(line).toHaveTextContent("Alpaca · Live endpoint · key …ABCD"));
    expect(within(line).getByText("Live money")).toBeInTheDocument();
    expect(within(line).getByRole("button", { name: "Change keys" })).toBeInTheDocument();
  });

  it("checks the keys before sending, and shows the server's field errors under the fields", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, ira], 10), (url, init) =>
      url === `/api/accounts/${ira.id}/broker` && init.method === "PUT"
        ? problem(422, "Unprocessable Entity", "A field is not valid.", [
            { field: "keyId", message: "Alpaca key ids are letters and digits" },
            { field: "secretKey", message: "The secret key is too short" },
          ])
        : undefined,
    );
    const dialog = await openConnectDialog(user, "IRA");
    const keyId = within(dialog).getByLabelText("Key ID");
    const secret = within(dialog).getByLabelText("Secret key");

    // The rules are checked before anything is sent.
    await fill(user, keyId, "PK-1");
    await fill(user, secret, "has spaces in it, too many");
    await user.click(within(dialog).getByRole("button", { name: "Connect Alpaca" }));
    expect(await within(dialog).findByText("Use 8 to 64 letters and digits")).toBeInTheDocument();
    expect(keyId).toHaveAccessibleDescription("Use 8 to 64 letters and digits");
    expect(secret).toHaveAccessibleDescription("Leave out spaces");
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith("/broker"))).toBe(false);

    // The server's answer goes under the fields it names.
    await fill(user, keyId, "PKTEST1234");
    await fill(user, secret, "0123456789abcdefXYZ");
    await user.click(within(dialog).getByRole("button", { name: "Connect Alpaca" }));
    await waitFor(() => expect(keyId).toHaveAccessibleDescription("Alpaca key ids are letters and digits"));
    expect(keyId).toHaveAttribute("aria-invalid", "true");
    expect(secret).toHaveAccessibleDescription("The secret key is too short");
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Connect IRA to Alpaca" })).toBeInTheDocument();
  });

  it("shows a refusal no field answers for (409, 403) in the dialog", async () => {
    const { user } = renderTab(makeTradingAccounts([main, ira], 10), (url, init) =>
      url === `/api/accounts/${ira.id}/broker` && init.method === "PUT"
        ? problem(409, "Conflict", undefined, [{ field: "id", message: STANDING_ORDERS_REFUSAL }])
        : url === `/api/accounts/${main.id}/broker` && init.method === "PUT"
          ? problem(403, "Forbidden", BROKER_PLAN_REFUSAL)
          : undefined,
    );
    let dialog = await openConnectDialog(user, "IRA");
    await fill(user, within(dialog).getByLabelText("Key ID"), "PKTEST1234");
    await fill(user, within(dialog).getByLabelText("Secret key"), "0123456789abcdefXYZ");
    await user.click(within(dialog).getByRole("button", { name: "Connect Alpaca" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(STANDING_ORDERS_REFUSAL);
    expect(await screen.findByText("Alpaca Not Connected")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    dialog = await openConnectDialog(user, "Main");
    await fill(user, within(dialog).getByLabelText("Key ID"), "PKTEST1234");
    await fill(user, within(dialog).getByLabelText("Secret key"), "0123456789abcdefXYZ");
    await user.click(within(dialog).getByRole("button", { name: "Connect Alpaca" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent(BROKER_PLAN_REFUSAL);
    expect(within(alert).getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");
  });

  it("disconnects an account after asking, back to the paper broker", async () => {
    const { fetchMock, user } = renderTab(makeTradingAccounts([main, alpacaLive], 10));
    await user.click(within(await brokerOf("Alpaca Live")).getByRole("button", { name: "Disconnect" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Disconnect Alpaca Live from Alpaca?" });
    expect(dialog).toHaveAccessibleDescription("Orders for Alpaca Live go to the paper broker again.");
    await user.click(within(dialog).getByRole("button", { name: "Disconnect" }));

    expect(await screen.findByText("Broker Disconnected")).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([input, init]) => String(input) === `/api/accounts/${alpacaLive.id}/broker` && init?.method === "DELETE"),
    ).toBe(true);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    const line = await brokerOf("Alpaca Live");
    await waitFor(() => expect(figures(line)).toEqual(["Broker: Paper broker (built in)"]));
    expect(within(line).queryByText("Live money")).not.toBeInTheDocument();
    expect(within(line).getByRole("button", { name: "Connect Alpaca" })).toBeInTheDocument();
  });

  it("keeps the connection and says why when the server refuses the disconnect (409)", async () => {
    const { user } = renderTab(makeTradingAccounts([main, alpacaPaper], 10), (url, init) =>
      url === `/api/accounts/${alpacaPaper.id}/broker` && init.method === "DELETE"
        ? problem(409, "Conflict", STANDING_ORDERS_REFUSAL)
        : undefined,
    );
    await user.click(within(await brokerOf("Alpaca Paper")).getByRole("button", { name: "Disconnect" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Disconnect Alpaca Paper from Alpaca?" });
    await user.click(within(dialog).getByRole("button", { name: "Disconnect" }));
    expect(await screen.findByText("Broker Not Disconnected")).toBeInTheDocument();
    expect(screen.getByText(STANDING_ORDERS_REFUSAL)).toBeInTheDocument();
    expect(screen.getByRole("alertdialog", { name: "Disconnect Alpaca Paper from Alpaca?" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(await brokerOf("Alpaca Paper")).toHaveTextContent("Alpaca · Paper endpoint · key …WXYZ");
  });

  it("offers no connection on a plan below Premium, and still shows the paper broker", async () => {
    renderTab(makeTradingAccounts([main], 1));
    const line = await brokerOf("Main");
    expect(figures(line)).toEqual(["Broker: Paper broker (built in)"]);
    expect(screen.queryByRole("button", { name: "Connect Alpaca" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change keys" })).not.toBeInTheDocument();
  });

  it("after a downgrade, keeps the way back to the paper broker but not to new keys", async () => {
    renderTab(makeTradingAccounts([{ ...alpacaPaper, current: true }], 1));
    const line = await brokerOf("Alpaca Paper");
    expect(line).toHaveTextContent("Your plan does not trade through Alpaca");
    expect(within(line).queryByRole("button", { name: "Change keys" })).not.toBeInTheDocument();
    expect(within(line).getByRole("button", { name: "Disconnect" })).toBeInTheDocument();
  });
});

describe("TradingAccountsTab: checking an account against Alpaca", () => {
  const alpaca = makeTradingAccount({ name: "Alpaca Paper", broker: { name: "alpaca", endpoint: "paper", keyHint: "WXYZ" } });
  const checkUrl = `/api/accounts/${alpaca.id}/broker/reconciliation`;
  const NOT_CONNECTED = "Alpaca refused the account's keys. Change them to check again.";

  /** An answer of the check, as the server gives it: the books agree on 3 contracts unless `overrides` says otherwise. */
  function reconciliation(overrides: Record<string, unknown> = {}) {
    return jsonResponse({
      accountId: alpaca.id,
      checkedAt: "2026-11-23T14:35:00Z",
      brokerCash: 12_345.67,
      brokerOptionsBuyingPower: 24_000,
      brokerFees: 0.05,
      feesBooked: 0,
      connectedAt: "2026-11-20T10:00:00Z",
      matched: 3,
      differences: [],
      otherHoldings: 0,
      ...overrides,
    });
  }

  /** The tab with Main (paper) and Alpaca Paper, the check answered by `answer` (called once per check). */
  function renderWithCheck(answer: () => Response | Promise<Response>) {
    return renderTab(makeTradingAccounts([main, alpaca], 10), (url, init) =>
      url === checkUrl && (init.method ?? "GET") === "GET" ? answer() : undefined,
    );
  }

  async function openCheck(user: Events) {
    const line = within(await row("Alpaca Paper")).getByTestId("account-broker");
    await user.click(within(line).getByRole("button", { name: "Check against Alpaca" }));
    return screen.findByRole("dialog", { name: "Check Alpaca Paper against Alpaca" });
  }

  it("offers the check only for accounts connected to Alpaca", async () => {
    const { fetchMock } = renderWithCheck(() => reconciliation());
    const check = within(await row("Alpaca Paper")).getByRole("button", { name: "Check against Alpaca" });
    expect(check).toHaveAccessibleDescription("Alpaca Paper");
    expect(within(await row("Main")).queryByRole("button", { name: "Check against Alpaca" })).not.toBeInTheDocument();
    // Nothing is asked of Alpaca until the button is pressed.
    expect(fetchMock.mock.calls.some(([input]) => String(input) === checkUrl)).toBe(false);
  });

  it("says the books agree, with Alpaca's cash and buying power and when it checked", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { fetchMock, user } = renderWithCheck(() => gate.then(() => reconciliation()));
    const dialog = await openCheck(user);

    expect(within(dialog).getByRole("status", { name: "Checking with Alpaca…" })).toHaveAttribute("aria-busy", "true");
    release();

    const summary = within(dialog).getByTestId("broker-check-summary");
    await waitFor(() => expect(summary).toHaveTextContent("Books agree: 3 contracts match."));
    expect(summary).toHaveAttribute("aria-live", "polite");
    expect(figures(within(dialog).getByTestId("broker-figures"))).toEqual([
      "Cash at Alpaca: $12,345.67",
      "Options buying power: $24,000.00",
      "Fees at Alpaca since connected: $0.05",
      `Checked at: ${formatDateTime("2026-11-23T14:35:00Z")}`,
    ]);
    expect(within(dialog).getByTestId("broker-fees-note")).toHaveTextContent("Alpaca's fees are taken from this account's cash once each.");
    expect(within(dialog).queryByRole("table")).not.toBeInTheDocument();
    expect(dialog).not.toHaveTextContent("not compared");
    expect(fetchMock.mock.calls.filter(([input]) => String(input) === checkUrl)).toHaveLength(1);

    // "Check again" asks Alpaca afresh.
    await user.click(within(dialog).getByRole("button", { name: "Check again" }));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([input]) => String(input) === checkUrl)).toHaveLength(2));
    await waitFor(() => expect(summary).toHaveTextContent("Books agree: 3 contracts match."));
  });

  it("reads the account list again when the check took new fees from its cash", async () => {
    const { fetchMock, user } = renderWithCheck(() => reconciliation({ feesBooked: 2 }));
    await row("Alpaca Paper");
    const lists = () =>
      fetchMock.mock.calls.filter(([input, init]) => String(input) === "/api/accounts" && (init?.method ?? "GET") === "GET");
    const before = lists().length;
    const dialog = await openCheck(user);
    await waitFor(() =>
      expect(within(dialog).getByTestId("broker-fees-note")).toHaveTextContent(
        "Alpaca's fees are taken from this account's cash once each: this check took 2 new fees.",
      ),
    );
    await waitFor(() => expect(lists().length).toBe(before + 1));
  });

  it("lists the contracts that differ, a written one with a negative count", async () => {
    const { user } = renderWithCheck(() =>
      reconciliation({
        matched: 1,
        brokerOptionsBuyingPower: null,
        differences: [
          {
            symbol: "MSFT261218C00400000",
            underlying: "MSFT",
            right: "call",
            strikePrice: 400,
            expirationDate: "2026-12-18",
            ours: -1,
            theirs: 0,
          },
          {
            symbol: "AAPL261120P00182500",
            underlying: "AAPL",
            right: "put",
            strikePrice: 182.5,
            expirationDate: "2026-11-20",
            ours: 2,
            theirs: 3,
          },
        ],
      }),
    );
    const dialog = await openCheck(user);

    const summary = within(dialog).getByTestId("broker-check-summary");
    await waitFor(() => expect(summary).toHaveTextContent("Warning: 2 contracts differ; 1 matches."));
    expect(figures(within(dialog).getByTestId("broker-figures"))).toContain("Options buying power: Not reported");

    const table = within(dialog).getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Contract", "Our books", "Alpaca", "Difference"]);
    const [written, bought] = within(table).getAllByTestId("difference-row");
    expect(within(written).getByRole("rowheader")).toHaveTextContent("MSFT 400 call 2026-12-18MSFT261218C00400000");
    expect(within(written).getByText("MSFT261218C00400000")).toHaveClass("font-mono");
    expect(
      within(written)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["-1 (written)", "0", "+1"]);
    expect(within(bought).getByRole("rowheader")).toHaveTextContent("AAPL 182.5 put 2026-11-20");
    expect(
      within(bought)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["2", "3", "+1"]);

    // The same, stacked, for phones.
    const list = within(dialog).getByRole("list", { name: "Differences" });
    expect(list).toHaveClass("md:hidden");
    const [item] = within(list).getAllByRole("listitem");
    expect(item).toHaveTextContent("MSFT 400 call 2026-12-18");
    expect(figures(item)).toEqual(["Our books: -1 (written)", "Alpaca: 0", "Difference: +1"]);
  });

  it("says what Alpaca holds besides options, not compared", async () => {
    const { user } = renderWithCheck(() => reconciliation({ otherHoldings: 2 }));
    const dialog = await openCheck(user);
    expect(await within(dialog).findByText("Alpaca also holds 2 positions that are not options (not compared).")).toBeInTheDocument();
    expect(within(dialog).getByTestId("broker-check-summary")).toHaveTextContent("Books agree: 3 contracts match.");
  });

  it("shows the server's reason when Alpaca refuses the keys (409)", async () => {
    const { user } = renderWithCheck(() => problem(409, "Conflict", undefined, [{ field: "id", message: NOT_CONNECTED }]));
    const dialog = await openCheck(user);
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("Failed to check against Alpaca");
    expect(alert).toHaveTextContent(NOT_CONNECTED);
    expect(within(dialog).getByTestId("broker-check-summary")).toBeEmptyDOMElement();
  });

  it("says when Alpaca cannot answer (503), and checks again on request", async () => {
    let down = true;
    const { user } = renderWithCheck(() =>
      down ? problem(503, "Service Unavailable", "Alpaca cannot answer now. Try again in a few minutes.") : reconciliation(),
    );
    const dialog = await openCheck(user);
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("Alpaca cannot answer now. Try again in a few minutes.");
    down = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(within(dialog).getByTestId("broker-check-summary")).toHaveTextContent("Books agree: 3 contracts match."));
  });

  it("says when to try again after too many checks (429)", async () => {
    const { user } = renderWithCheck(() =>
      jsonResponse({ type: "about:blank", title: "Too Many Requests", status: 429, detail: "Slow down." }, 429, { "Retry-After": "30" }),
    );
    const dialog = await openCheck(user);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Too many checks: try again in 30 s.");
  });
});
