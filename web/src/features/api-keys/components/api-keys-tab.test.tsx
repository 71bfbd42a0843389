import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey, TradingAccounts } from "@/lib/api/models";
import { makeApiKey } from "@/test/settings-fixtures";
import { makeTradingAccount, makeTradingAccounts } from "@/test/trading-account-fixtures";
import { jsonResponse, makePlanCatalogue, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { ApiKeysTab } from "./api-keys-tab";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const LIST = "/api/api-keys";
const FULL_KEY = "slk_NewKeyNewKeyNewKeyNewKeyNewKeyNewKey1234";

/** The body of the POST that created a key. */
function createBody(fetchMock: ReturnType<typeof mockFetch>): unknown {
  const call = fetchMock.mock.calls.find(([url, init]) => String(url) === LIST && init?.method === "POST");
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/** The key endpoints over `keys`; `extra` answers first. */
function keysServer(initial: ApiKey[], extra: Handler = () => undefined) {
  let keys = initial;
  const fetchMock = mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    const method = init.method ?? "GET";
    if (url === LIST && method === "GET") return jsonResponse(keys);
    if (url === LIST && method === "POST") {
      const body = JSON.parse(String(init.body)) as CreateApiKeyRequest;
      const apiKey = makeApiKey({
        name: body.name,
        permissions: body.permissions ?? "read",
        accountId: body.accountId ?? null,
        keyPrefix: "slk_NewKeyNe",
      });
      keys = [apiKey, ...keys];
      const created: CreatedApiKey = { key: FULL_KEY, apiKey, message: "Copy the key now: it cannot be shown again." };
      return jsonResponse(created, 201);
    }
    const toggle = url.match(/^\/api\/api-keys\/([^/]+)\/toggle$/);
    if (toggle && method === "PATCH") {
      const { isActive } = JSON.parse(String(init.body)) as { isActive: boolean };
      keys = keys.map((k) => (k.id === toggle[1] ? { ...k, isActive } : k));
      return jsonResponse(keys.find((k) => k.id === toggle[1]));
    }
    const remove = url.match(/^\/api\/api-keys\/([^/]+)$/);
    if (remove && method === "DELETE") {
      keys = keys.filter((k) => k.id !== remove[1]);
      return new Response(null, { status: 204 });
    }
    return jsonResponse({});
  });
  return { fetchMock, keys: () => keys };
}

function renderTab() {
  renderWithProviders(<ApiKeysTab plans={makePlanCatalogue().plans} currentPlan="pro" origin="https://strikeline.test" />);
  return userEvent.setup();
}

describe("ApiKeysTab", () => {
  it("lists each key with its masked prefix, permission, dates and an 'Expired' badge", async () => {
    keysServer([
      makeApiKey({ name: "Bot", permissions: "write", lastUsed: new Date(Date.now() - 3 * 3600_000).toISOString() }),
      makeApiKey({ name: "Old", permissions: "admin", keyPrefix: "slk_OldOldOl", expired: true, expiresAt: "2026-01-01T00:00:00Z" }),
    ]);
    renderTab();
    const rows = await screen.findAllByTestId("api-key-row");
    expect(rows).toHaveLength(2);
    const [bot, old] = rows;
    expect(within(bot).getByText("Read & Write")).toBeInTheDocument();
    expect(within(bot).getByText(/slk_AbCdEfGh/)).toHaveTextContent("slk_AbCdEfGh••••••••••••");
    expect(bot).toHaveTextContent("Created Nov 20, 2026");
    expect(bot).toHaveTextContent("Last used 3 hours ago");
    expect(bot).toHaveTextContent("Never expires");
    expect(within(bot).queryByText("Expired")).not.toBeInTheDocument();
    expect(within(bot).getByRole("switch", { name: "Bot active" })).toBeEnabled();

    expect(within(old).getByText("Full Access")).toBeInTheDocument();
    expect(within(old).getAllByText("Expired").length).toBeGreaterThan(0);
    expect(old).toHaveTextContent("Expired Jan 1, 2026");
    expect(old).toHaveTextContent("Never used");
    const oldSwitch = within(old).getByRole("switch", { name: "Old active" });
    expect(oldSwitch).toBeDisabled();
    expect(oldSwitch).not.toBeChecked();
    expect(screen.getByText(/2 of 20 keys/)).toBeInTheDocument();
  });

  it("documents the API: base URL, header, curl, permissions, the plan's quota and a link to /api", async () => {
    keysServer([]);
    renderTab();
    expect(await screen.findByText("No API keys yet")).toBeInTheDocument();
    expect(screen.getByText("https://strikeline.test/api/v1")).toBeInTheDocument();
    expect(screen.getAllByText("Authorization: Bearer <key>").length).toBeGreaterThan(0);
    expect(screen.getByLabelText("curl example")).toHaveTextContent('curl -H "Authorization: Bearer $STRIKELINE_API_KEY"');
    for (const label of ["Read Only", "Read & Write", "Full Access"]) expect(screen.getByText(label)).toBeInTheDocument();
    const quotas = screen.getByRole("list", { name: "Requests per hour by plan" });
    const mine = within(quotas)
      .getAllByRole("listitem")
      .find((li) => li.getAttribute("aria-current") === "true");
    expect(mine).toHaveTextContent("Pro · your plan1,000 requests/hour");
    expect(screen.getByRole("link", { name: "Open the full API reference" })).toHaveAttribute("href", "/api");
  });

  it("asks for a name: an empty one after trimming toasts and sends nothing", async () => {
    const { fetchMock } = keysServer([]);
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API Key" });
    await events.type(within(dialog).getByLabelText("Name"), "   ");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    expect(await screen.findByText("Please enter a name for your API key")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "POST")).toHaveLength(0);
  });

  it("creates a key (read, never by default), shows it once with a 2-second copy check, and Done forgets it", async () => {
    const { fetchMock } = keysServer([]);
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API Key" });
    expect(within(dialog).getByLabelText("Permissions")).toHaveDisplayValue("Read Only");
    expect(within(dialog).getByLabelText("Expiration")).toHaveDisplayValue("Never");
    await events.type(within(dialog).getByLabelText("Name"), "  Trading bot  ");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));

    const shown = await screen.findByRole("dialog", { name: "Your new API key" });
    expect(createBody(fetchMock)).toEqual({ name: "Trading bot", permissions: "read", expiresIn: "never" });
    expect(within(shown).getByTestId("created-api-key")).toHaveTextContent(FULL_KEY);
    expect(within(shown).getByText(/cannot be shown again/)).toBeInTheDocument();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await events.click(within(shown).getByRole("button", { name: "Copy API key" }));
    expect(await navigator.clipboard.readText()).toBe(FULL_KEY);
    expect(await within(shown).findByRole("button", { name: "API key copied" })).toHaveTextContent("Copied");
    vi.advanceTimersByTime(2100);
    await waitFor(() => expect(within(shown).getByRole("button", { name: "Copy API key" })).toHaveTextContent("Copy"));
    vi.useRealTimers();

    await events.click(within(shown).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText(FULL_KEY)).not.toBeInTheDocument();
    const row = screen.getByTestId("api-key-row");
    expect(row).toHaveTextContent("Trading bot");
    expect(row).toHaveTextContent("slk_NewKeyNe••••••••••••");
  });

  it("sends the chosen permission and expiration, and toasts the server's reason when it refuses", async () => {
    const { fetchMock } = keysServer([], (url, init) =>
      url === LIST && init.method === "POST"
        ? problem(409, "Conflict", "You already hold 20 API keys. Delete one to create another.")
        : undefined,
    );
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API Key" });
    await events.type(within(dialog).getByLabelText("Name"), "CI");
    await events.selectOptions(within(dialog).getByLabelText("Permissions"), "write");
    await events.selectOptions(within(dialog).getByLabelText("Expiration"), "90 days");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    expect(await screen.findByText("You already hold 20 API keys. Delete one to create another.")).toBeInTheDocument();
    expect(createBody(fetchMock)).toEqual({ name: "CI", permissions: "write", expiresIn: "90" });
    expect(screen.getByRole("dialog", { name: "Create API Key" })).toBeInTheDocument();
  });

  it("an unconfirmed address (403): shows the server's reason in the dialog with 'Send a new link'", async () => {
    const detail = "Confirm your email address first: open the link we sent you (Settings › General can send a new one).";
    const { fetchMock } = keysServer([], (url, init) => {
      if (url === LIST && init.method === "POST")
        return jsonResponse({ type: "/docs/errors#address-not-confirmed", title: "Address not confirmed", status: 403, detail }, 403);
      if (url === "/api/auth/verify-email/resend") return new Response(null, { status: 202 });
      return undefined;
    });
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API Key" });
    await events.type(within(dialog).getByLabelText("Name"), "CI");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    const refusal = await within(dialog).findByTestId("api-key-address-refusal");
    expect(refusal).toHaveRole("alert");
    expect(refusal).toHaveTextContent(detail);
    expect(await screen.findByText("Email Not Confirmed")).toBeInTheDocument();
    await events.click(within(refusal).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Link Sent")).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/auth/verify-email/resend")).toHaveLength(1);
  });

  it("unconfirmed: Create API Key is disabled and the card says why, with 'Send a new link'", async () => {
    keysServer([]);
    renderWithProviders(
      <ApiKeysTab
        plans={makePlanCatalogue().plans}
        currentPlan="free"
        origin="https://strikeline.test"
        addressConfirmed={false}
        email="ada@example.com"
      />,
    );
    const create = await screen.findByRole("button", { name: "Create API Key" });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription("Confirm your email address to create API keys: open the link we sent to ada@example.com.");
    expect(screen.getByTestId("api-keys-unconfirmed")).toContainElement(screen.getByRole("button", { name: "Send a new link" }));
  });

  it("toasts 'Failed to create API key' when the server gives no reason", async () => {
    keysServer([], (url, init) => (url === LIST && init.method === "POST" ? new Response("", { status: 500 }) : undefined));
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API Key" });
    await events.type(within(dialog).getByLabelText("Name"), "CI");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    expect(await screen.findByText("Failed to create API key")).toBeInTheDocument();
  });

  it("switches a key off, the switch disabled while it waits", async () => {
    const key = makeApiKey({ name: "Bot" });
    let release = () => {};
    const { keys } = keysServer([key], (_url, init) => {
      if (init.method !== "PATCH") return undefined;
      return new Promise<Response>((resolve) => {
        release = () => resolve(jsonResponse({ ...key, isActive: false }));
      });
    });
    const events = renderTab();
    const toggle = await screen.findByRole("switch", { name: "Bot active" });
    expect(toggle).toBeChecked();
    await events.click(toggle);
    await waitFor(() => expect(toggle).toBeDisabled());
    release();
    await waitFor(() => expect(screen.getByRole("switch", { name: "Bot active" })).not.toBeChecked());
    expect(screen.getByRole("switch", { name: "Bot active" })).toBeEnabled();
    expect(keys()).toHaveLength(1);
  });

  it("toasts 'Error' with the server's message when a toggle fails", async () => {
    keysServer([makeApiKey({ name: "Bot" })], (_url, init) =>
      init.method === "PATCH" ? problem(422, "Unprocessable Entity", "This API key has expired.") : undefined,
    );
    const events = renderTab();
    await events.click(await screen.findByRole("switch", { name: "Bot active" }));
    expect(await screen.findByText("This API key has expired.")).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Bot active" })).toBeChecked();
  });

  it("deletes a key after confirmation", async () => {
    const server = keysServer([makeApiKey({ name: "Bot" }), makeApiKey({ name: "Other" })]);
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Delete Bot" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete this API key?" });
    await events.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(server.keys()).toHaveLength(2);

    await events.click(screen.getByRole("button", { name: "Delete Bot" }));
    await events.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete Key" }));
    await waitFor(() => expect(screen.getAllByTestId("api-key-row")).toHaveLength(1));
    expect(server.keys().map((k) => k.name)).toEqual(["Other"]);
    expect(await screen.findByText("API Key Deleted")).toBeInTheDocument();
  });

  it("toasts 'Failed to update API key' when a delete fails without a reason", async () => {
    keysServer([makeApiKey({ name: "Bot" })], (_url, init) => (init.method === "DELETE" ? new Response("", { status: 500 }) : undefined));
    const events = renderTab();
    await events.click(await screen.findByRole("button", { name: "Delete Bot" }));
    await events.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete Key" }));
    expect(await screen.findByText("Failed to update API key")).toBeInTheDocument();
    expect(screen.getByTestId("api-key-row")).toBeInTheDocument();
  });
});

describe("ApiKeysTab: keys for one trading account", () => {
  const main = makeTradingAccount({ name: "Main", current: true });
  const ira = makeTradingAccount({ name: "IRA" });

  /** The key endpoints, and GET /api/accounts answering `accounts`; `extra` answers first. */
  function withAccounts(accounts: TradingAccounts, keys: ApiKey[] = [], extra: Handler = () => undefined) {
    return keysServer(keys, (url, init) => extra(url, init) ?? (url === "/api/accounts" ? jsonResponse(accounts) : undefined));
  }

  async function openCreateDialog(events: ReturnType<typeof userEvent.setup>) {
    await events.click(await screen.findByRole("button", { name: "Create API Key" }));
    return screen.findByRole("dialog", { name: "Create API Key" });
  }

  it("offers no Account choice to a user who holds one account, and says nothing of unscoped keys", async () => {
    const { fetchMock } = withAccounts(makeTradingAccounts([main]), [
      makeApiKey({ name: "Scoped", accountId: main.id }),
      makeApiKey({ name: "Plain" }),
    ]);
    const events = renderTab();
    const [scoped, plain] = await screen.findAllByTestId("api-key-row");
    // A key scoped to the one account still names it (the list of accounts is read by now).
    expect(await within(scoped).findByText("Main")).toBeInTheDocument();
    expect(within(plain).queryByText("Current account")).not.toBeInTheDocument();

    const dialog = await openCreateDialog(events);
    expect(within(dialog).queryByLabelText("Account")).not.toBeInTheDocument();
    await events.type(within(dialog).getByLabelText("Name"), "CI");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    await screen.findByRole("dialog", { name: "Your new API key" });
    expect(createBody(fetchMock)).toEqual({ name: "CI", permissions: "read", expiresIn: "never" });
  });

  it("shows which account each key acts on: its account's name, or 'Current account' when unscoped", async () => {
    withAccounts(makeTradingAccounts([main, ira], 10), [
      makeApiKey({ name: "IRA bot", accountId: ira.id }),
      makeApiKey({ name: "Any bot" }),
    ]);
    renderTab();
    const [scoped, plain] = await screen.findAllByTestId("api-key-row");
    expect(await within(scoped).findByText("IRA")).toBeInTheDocument();
    expect(within(scoped).queryByText("Current account")).not.toBeInTheDocument();
    expect(within(plain).getByText("Current account")).toBeInTheDocument();
  });

  it("with two accounts: the default sends no accountId, choosing IRA sends IRA's id", async () => {
    const { fetchMock } = withAccounts(makeTradingAccounts([main, ira], 10));
    const events = renderTab();

    let dialog = await openCreateDialog(events);
    const select = await within(dialog).findByLabelText("Account");
    expect(select).toHaveDisplayValue("Current account (follows your switch)");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Current account (follows your switch)", "Main", "IRA"]);
    expect(select).toHaveAccessibleDescription("The key acts on the account that is current when it is used.");
    await events.type(within(dialog).getByLabelText("Name"), "Any bot");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    await events.click(within(await screen.findByRole("dialog", { name: "Your new API key" })).getByRole("button", { name: "Done" }));
    const posts = () =>
      fetchMock.mock.calls
        .filter(([url, init]) => String(url) === LIST && init?.method === "POST")
        .map(([, init]) => JSON.parse(String(init?.body)));
    expect(posts()).toEqual([{ name: "Any bot", permissions: "read", expiresIn: "never" }]);
    expect(within(screen.getByTestId("api-key-row")).getByText("Current account")).toBeInTheDocument();

    dialog = await openCreateDialog(events);
    expect(within(dialog).getByLabelText("Account")).toHaveDisplayValue("Current account (follows your switch)");
    await events.type(within(dialog).getByLabelText("Name"), "IRA bot");
    await events.selectOptions(within(dialog).getByLabelText("Account"), "IRA");
    expect(within(dialog).getByLabelText("Account")).toHaveAccessibleDescription("The key acts on IRA, whichever account is current.");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    await events.click(within(await screen.findByRole("dialog", { name: "Your new API key" })).getByRole("button", { name: "Done" }));
    expect(posts()[1]).toEqual({ name: "IRA bot", permissions: "read", expiresIn: "never", accountId: ira.id });
    const [newest] = screen.getAllByTestId("api-key-row");
    expect(newest).toHaveTextContent("IRA bot");
    expect(within(newest).getByText("IRA")).toBeInTheDocument();
  });

  it("puts the server's 422 on accountId under the Account select", async () => {
    const reason = "Choose one of your trading accounts";
    withAccounts(makeTradingAccounts([main, ira], 10), [], (url, init) =>
      url === LIST && init.method === "POST"
        ? problem(422, "Invalid request", "The account is not one of yours.", [{ field: "accountId", message: reason }])
        : undefined,
    );
    const events = renderTab();
    const dialog = await openCreateDialog(events);
    const select = await within(dialog).findByLabelText("Account");
    await events.type(within(dialog).getByLabelText("Name"), "IRA bot");
    await events.selectOptions(select, "IRA");
    await events.click(within(dialog).getByRole("button", { name: "Create Key" }));
    await waitFor(() => expect(select).toHaveAttribute("aria-invalid", "true"));
    expect(select).toHaveAccessibleDescription(reason);
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "false");
    expect(screen.getByRole("dialog", { name: "Create API Key" })).toBeInTheDocument();
  });
});
