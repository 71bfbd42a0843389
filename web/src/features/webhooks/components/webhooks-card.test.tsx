import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CreatedWebhook, CreateWebhookRequest, Plan, TradingAccounts, WebhookDelivery, WebhookEndpoint } from "@/lib/api/models";
import { makeTradingAccount, makeTradingAccounts } from "@/test/trading-account-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { makeDelivery, makeWebhook } from "@/test/webhook-fixtures";
import { WebhooksCard } from "./webhooks-card";

afterEach(() => {
  vi.unstubAllGlobals();
});

const LIST = "/api/webhooks";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/** The webhook endpoints over `initial`, deliveries by endpoint id; `extra` answers first. */
function webhooksServer(initial: WebhookEndpoint[], deliveries: Record<string, WebhookDelivery[]> = {}, extra: Handler = () => undefined) {
  let endpoints = initial;
  const fetchMock = mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    const method = init.method ?? "GET";
    if (url === LIST && method === "GET") return jsonResponse(endpoints);
    if (url === LIST && method === "POST") {
      const body = JSON.parse(String(init.body)) as CreateWebhookRequest;
      const endpoint = makeWebhook({
        url: body.url,
        eventType: body.eventType,
        accountId: body.accountId ?? null,
        createdAt: new Date().toISOString(),
      });
      endpoints = [endpoint, ...endpoints];
      const created: CreatedWebhook = {
        message: "Webhook created. Copy its signing secret now: it will not be shown again.",
        webhookId: endpoint.id,
        secret: SECRET,
        endpoint,
      };
      return jsonResponse(created, 201);
    }
    const log = url.match(/^\/api\/webhooks\/([^/]+)\/deliveries$/);
    if (log && method === "GET") return jsonResponse(deliveries[log[1]] ?? []);
    const enable = url.match(/^\/api\/webhooks\/([^/]+)\/enable$/);
    if (enable && method === "POST") {
      endpoints = endpoints.map((e) => (e.id === enable[1] ? { ...e, isActive: true, disabledAt: null, failingSince: null } : e));
      return jsonResponse(endpoints.find((e) => e.id === enable[1]));
    }
    const remove = url.match(/^\/api\/webhooks\/([^/]+)$/);
    if (remove && method === "DELETE") {
      endpoints = endpoints.filter((e) => e.id !== remove[1]);
      return new Response(null, { status: 204 });
    }
    return problem(404, "Not Found", "The requested resource does not exist.");
  });
  return { fetchMock, endpoints: () => endpoints };
}

function renderCard(plan: Plan = "pro") {
  renderWithProviders(<WebhooksCard plan={plan} />);
  return userEvent.setup();
}

/** The requests sent with `method` to `url`. */
function callsTo(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string) {
  return fetchMock.mock.calls.filter(([input, init]) => String(input) === url && (init?.method ?? "GET") === method);
}

async function openAddDialog(events: ReturnType<typeof userEvent.setup>) {
  await events.click(await screen.findByRole("button", { name: "Add endpoint" }));
  return screen.findByRole("dialog", { name: "Add endpoint" });
}

describe("WebhooksCard", () => {
  it("explains the signed deliveries and links to the API reference", async () => {
    webhooksServer([]);
    renderCard();
    const card = screen.getByRole("region", { name: "Webhooks" });
    expect(card).toHaveTextContent("Strikeline POSTs signed JSON to your URL when events happen");
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"])
      expect(within(card).getByText(header)).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/api");
  });

  it("shows skeletons while loading, then the empty state and 0 of 10", async () => {
    webhooksServer([]);
    renderCard();
    expect(screen.getByLabelText("Loading your webhook endpoints")).toHaveAttribute("aria-busy", "true");
    expect(await screen.findByText("No endpoints yet")).toBeInTheDocument();
    expect(screen.getByTestId("webhook-count")).toHaveTextContent("0 of 10 endpoints");
    expect(screen.getByRole("button", { name: "Add endpoint" })).toBeEnabled();
  });

  it("lists each endpoint with its URL, event type, status and the day it was added", async () => {
    webhooksServer([
      makeWebhook({ url: "https://hooks.example.com/a-very-long-path/that/keeps/going/on", eventType: "price_alert" }),
      makeWebhook({ url: "https://b.example.com/hook", eventType: "signal_closed", failingSince: "2026-11-23T14:30:00Z" }),
      makeWebhook({ url: "https://c.example.com/hook", eventType: "position_closed", isActive: false, disabledAt: "2026-11-24T15:00:00Z" }),
    ]);
    renderCard();
    const rows = await screen.findAllByTestId("webhook-row");
    expect(rows).toHaveLength(3);
    const [active, failing, off] = rows;

    const url = within(active).getByText("https://hooks.example.com/a-very-long-path/that/keeps/going/on");
    expect(url).toHaveAttribute("title", "https://hooks.example.com/a-very-long-path/that/keeps/going/on");
    expect(url).toHaveClass("truncate");
    expect(within(active).getByText("Price alert")).toBeInTheDocument();
    expect(within(active).getByTestId("webhook-status")).toHaveTextContent(/^Active$/);
    expect(active).toHaveTextContent("Added Nov 20, 2026");
    expect(within(active).getByRole("button", { name: "Send test" })).toBeEnabled();
    expect(within(active).queryByRole("button", { name: "Switch on" })).not.toBeInTheDocument();

    expect(within(failing).getByText("Signal closed")).toBeInTheDocument();
    expect(within(failing).getByTestId("webhook-status")).toHaveTextContent(/^Failing since Nov 23, 2026/);

    expect(within(off).getByText("Position closed")).toBeInTheDocument();
    expect(within(off).getByTestId("webhook-status")).toHaveTextContent(/^Switched off on Nov 2[45], 2026$/);
    expect(within(off).getByRole("button", { name: "Switch on" })).toBeInTheDocument();
    expect(within(off).queryByRole("button", { name: "Send test" })).not.toBeInTheDocument();

    expect(screen.getByTestId("webhook-count")).toHaveTextContent("3 of 10 endpoints");
  });

  it("says when the list cannot be read and offers to try again", async () => {
    let fail = true;
    webhooksServer([makeWebhook()], {}, (url) => (url === LIST && fail ? new Response("", { status: 500 }) : undefined));
    const events = renderCard();
    expect(await screen.findByText("Failed to fetch your webhook endpoints")).toBeInTheDocument();
    fail = false;
    await events.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("webhook-row")).toBeInTheDocument();
  });

  it("adds an endpoint and shows its secret once, with a copy button; Done forgets it", async () => {
    const { fetchMock } = webhooksServer([]);
    const events = renderCard();
    const dialog = await openAddDialog(events);
    const select = within(dialog).getByLabelText("Event type");
    expect(select).toHaveDisplayValue("New signal");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["New signal", "Price alert", "Signal closed", "Position closed", "Order filled", "Order refused"]);
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "  https://hooks.example.com/strikeline  ");
    await events.selectOptions(select, "Price alert");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));

    const shown = await screen.findByRole("dialog", { name: "Your webhook signing secret" });
    expect(JSON.parse(String(callsTo(fetchMock, "POST", LIST)[0][1]?.body))).toEqual({
      url: "https://hooks.example.com/strikeline",
      eventType: "price_alert",
    });
    expect(within(shown).getByTestId("created-webhook-secret")).toHaveTextContent(SECRET);
    expect(within(shown).getByText(/It will not be shown again/)).toBeInTheDocument();
    expect(within(shown).getByText(/Price alert events to https:\/\/hooks.example.com\/strikeline/)).toBeInTheDocument();

    await events.click(within(shown).getByRole("button", { name: "Copy signing secret" }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await within(shown).findByRole("button", { name: "signing secret copied" })).toHaveTextContent("Copied");

    await events.click(within(shown).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    const row = screen.getByTestId("webhook-row");
    await waitFor(() => expect(within(row).getByRole("button", { name: "Send test" })).toHaveFocus());
    expect(row).toHaveTextContent("https://hooks.example.com/strikeline");
    expect(row).toHaveTextContent("Price alert");
    expect(screen.getByTestId("webhook-count")).toHaveTextContent("1 of 10 endpoints");
  });

  it("checks the URL before sending: empty or not a URL is shown under the field", async () => {
    const { fetchMock } = webhooksServer([]);
    const events = renderCard();
    const dialog = await openAddDialog(events);
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    const input = within(dialog).getByLabelText("Endpoint URL");
    expect(await within(dialog).findByText("Enter the URL to send events to")).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    await events.type(input, "hooks.example.com");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    expect(await within(dialog).findByText(/Enter a full URL/)).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST", LIST)).toHaveLength(0);
  });

  it("puts the server's 422 reason under the URL field and toasts it", async () => {
    const reason = "The URL must use https.";
    webhooksServer([], {}, (url, init) =>
      url === LIST && init.method === "POST" ? problem(422, "Invalid request", reason, [{ field: "url", message: reason }]) : undefined,
    );
    const events = renderCard();
    const dialog = await openAddDialog(events);
    const input = within(dialog).getByLabelText("Endpoint URL");
    await events.type(input, "http://hooks.example.com/strikeline");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));

    await waitFor(() => expect(input).toHaveAttribute("aria-invalid", "true"));
    const message = document.getElementById(input.getAttribute("aria-describedby") ?? "");
    expect(message).toHaveTextContent(reason);
    expect(input).toHaveFocus();
    expect(await screen.findByText("Endpoint Not Added")).toBeInTheDocument();
    expect(screen.getAllByText(reason).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole("dialog", { name: "Add endpoint" })).toBeInTheDocument();
  });

  it("shows the server's 403 with an Upgrade link to /pricing", async () => {
    const detail = "Webhooks need the Pro or Premium plan.";
    webhooksServer([], {}, (url, init) => (url === LIST && init.method === "POST" ? problem(403, "Forbidden", detail) : undefined));
    const events = renderCard();
    const dialog = await openAddDialog(events);
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://hooks.example.com/strikeline");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    const refusal = await within(dialog).findByTestId("webhook-plan-refusal");
    expect(refusal).toHaveRole("alert");
    expect(refusal).toHaveTextContent(detail);
    expect(within(refusal).getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
  });

  it("an unconfirmed address (403): shows the server's reason with 'Send a new link' instead of Upgrade", async () => {
    const detail = "Confirm your email address first: open the link we sent you (Settings › General can send a new one).";
    const { fetchMock } = webhooksServer([], {}, (url, init) => {
      if (url === LIST && init.method === "POST")
        return jsonResponse({ type: "/docs/errors#address-not-confirmed", title: "Address not confirmed", status: 403, detail }, 403);
      if (url === "/api/auth/verify-email/resend") return new Response(null, { status: 202 });
      return undefined;
    });
    const events = renderCard();
    const dialog = await openAddDialog(events);
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://hooks.example.com/strikeline");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    const refusal = await within(dialog).findByTestId("webhook-address-refusal");
    expect(refusal).toHaveRole("alert");
    expect(refusal).toHaveTextContent(detail);
    expect(within(dialog).queryByRole("link", { name: "Upgrade" })).not.toBeInTheDocument();
    expect(await screen.findByText("Email Not Confirmed")).toBeInTheDocument();
    await events.click(within(refusal).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Link Sent")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST", "/api/auth/verify-email/resend")).toHaveLength(1);
  });

  it("unconfirmed: Add endpoint is disabled and says the address must be confirmed first", async () => {
    webhooksServer([]);
    renderWithProviders(<WebhooksCard plan="free" addressConfirmed={false} email="ada@example.com" />);
    await screen.findByText("No endpoints yet");
    const add = screen.getByRole("button", { name: "Add endpoint" });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(/^Webhooks need a confirmed email address: open the link we sent to ada@example.com/);
    expect(screen.queryByRole("link", { name: "Upgrade" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send a new link" })).toBeEnabled();
  });

  it("toasts the server's reason for a 409 and a 429", async () => {
    let answer = problem(409, "Already taken", "You have 10 webhook endpoints. Delete one to add another.", [
      { field: "url", message: "You have 10 webhook endpoints. Delete one to add another." },
    ]);
    webhooksServer([], {}, (url, init) => (url === LIST && init.method === "POST" ? answer : undefined));
    const events = renderCard();
    const dialog = await openAddDialog(events);
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://hooks.example.com/strikeline");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByText("You have 10 webhook endpoints. Delete one to add another.")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Endpoint URL")).toHaveAttribute("aria-invalid", "false");

    answer = jsonResponse(
      { type: "about:blank", title: "Too Many Requests", status: 429, detail: "Too many requests. Try again in 12 minutes." },
      429,
      {
        "Retry-After": "720",
      },
    );
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByText("Too many requests. Try again in 12 minutes.")).toBeInTheDocument();
  });

  it("on the Free plan disables Add endpoint and says why, with an Upgrade link", async () => {
    webhooksServer([]);
    renderCard("free");
    await screen.findByText("No endpoints yet");
    const add = screen.getByRole("button", { name: "Add endpoint" });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(/Webhooks are part of the Pro and Premium plans/);
    expect(screen.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
  });

  it("disables Add endpoint at 10 endpoints", async () => {
    webhooksServer(Array.from({ length: 10 }, () => makeWebhook()));
    renderCard();
    expect(await screen.findByTestId("webhook-count")).toHaveTextContent("10 of 10 endpoints");
    const add = screen.getByRole("button", { name: "Add endpoint" });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription("You have 10 endpoints, the most allowed. Delete one to add another.");
  });

  it("deletes an endpoint after confirmation", async () => {
    const keep = makeWebhook({ url: "https://keep.example.com/hook" });
    const drop = makeWebhook({ url: "https://drop.example.com/hook" });
    const server = webhooksServer([drop, keep]);
    const events = renderCard();
    const [first] = await screen.findAllByTestId("webhook-row");
    await events.click(within(first).getByRole("button", { name: "Delete" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete this endpoint?" });
    expect(confirm).toHaveTextContent("https://drop.example.com/hook");
    await events.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(callsTo(server.fetchMock, "DELETE", `${LIST}/${drop.id}`)).toHaveLength(0);
    await waitFor(() => expect(within(first).getByRole("button", { name: "Delete" })).toHaveFocus());

    await events.click(within(screen.getAllByTestId("webhook-row")[0]).getByRole("button", { name: "Delete" }));
    await events.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete endpoint" }));
    await waitFor(() => expect(screen.getAllByTestId("webhook-row")).toHaveLength(1));
    expect(server.endpoints().map((e) => e.url)).toEqual(["https://keep.example.com/hook"]);
    await waitFor(() => expect(screen.getByRole("region", { name: "Webhooks" })).toHaveFocus());
    expect(await screen.findByText("Endpoint Deleted")).toBeInTheDocument();
    expect(screen.getByTestId("webhook-count")).toHaveTextContent("1 of 10 endpoints");
  });

  it("sends a test and toasts the status code and latency, or the error", async () => {
    const hook = makeWebhook();
    let outcome: WebhookDelivery = makeDelivery({ statusCode: 200, latencyMs: 1234, succeeded: true });
    const { fetchMock } = webhooksServer([hook], {}, (url, init) =>
      url === `${LIST}/${hook.id}/test` && init.method === "POST" ? jsonResponse(outcome) : undefined,
    );
    const events = renderCard();
    await events.click(await screen.findByRole("button", { name: "Send test" }));
    expect(await screen.findByText("Test Delivered")).toBeInTheDocument();
    expect(screen.getByText("HTTP 200 in 1,234 ms.")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST", `${LIST}/${hook.id}/test`)).toHaveLength(1);

    outcome = makeDelivery({ statusCode: null, latencyMs: 5000, succeeded: false, error: "connection refused" });
    await events.click(screen.getByRole("button", { name: "Send test" }));
    expect(await screen.findByText("Test Failed")).toBeInTheDocument();
    expect(screen.getByText("No answer after 5,000 ms: connection refused")).toBeInTheDocument();

    outcome = makeDelivery({ statusCode: 500, latencyMs: 40, succeeded: false, error: null });
    await events.click(screen.getByRole("button", { name: "Send test" }));
    expect(await screen.findByText("HTTP 500 in 40 ms.")).toBeInTheDocument();
  });

  it("toasts the server's reason when a test is refused", async () => {
    const hook = makeWebhook();
    webhooksServer([hook], {}, (url) =>
      url === `${LIST}/${hook.id}/test`
        ? problem(422, "Invalid request", "This endpoint is switched off. Switch it on to send to it.")
        : undefined,
    );
    const events = renderCard();
    await events.click(await screen.findByRole("button", { name: "Send test" }));
    expect(await screen.findByText("Test Not Sent")).toBeInTheDocument();
    expect(screen.getByText("This endpoint is switched off. Switch it on to send to it.")).toBeInTheDocument();
  });

  it("switches a switched-off endpoint back on", async () => {
    const hook = makeWebhook({ isActive: false, disabledAt: "2026-11-24T15:00:00Z", failingSince: "2026-11-23T15:00:00Z" });
    webhooksServer([hook]);
    const events = renderCard();
    await events.click(await screen.findByRole("button", { name: "Switch on" }));
    expect(await screen.findByText("Endpoint Switched On")).toBeInTheDocument();
    expect(screen.getByTestId("webhook-status")).toHaveTextContent(/^Active$/);
    expect(screen.getByRole("button", { name: "Send test" })).toBeEnabled();
  });

  it("opens the delivery log: a row per attempt, newest first, or 'No deliveries yet'", async () => {
    const busy = makeWebhook({ url: "https://busy.example.com/hook" });
    const quiet = makeWebhook({ url: "https://quiet.example.com/hook" });
    webhooksServer([busy, quiet], {
      [busy.id]: [
        makeDelivery({ attemptedAt: "2026-11-23T14:31:00Z", statusCode: 200, latencyMs: 42, succeeded: true }),
        makeDelivery({ attemptedAt: "2026-11-23T14:30:00Z", statusCode: 503, latencyMs: 1500, succeeded: false, error: "HTTP 503" }),
        makeDelivery({ attemptedAt: "2026-11-23T14:29:00Z", statusCode: null, latencyMs: 10000, succeeded: false, error: "timed out" }),
      ],
    });
    const events = renderCard();
    const [busyRow, quietRow] = await screen.findAllByTestId("webhook-row");

    const toggle = within(busyRow).getByRole("button", { name: "Delivery log" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await events.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const log = await within(busyRow).findByRole("region", { name: "Delivery log" });
    expect(toggle).toHaveAttribute("aria-controls", log.id);
    const table = await within(log).findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Time", "Result", "HTTP", "Latency", "Error"]);
    const rows = within(table).getAllByTestId("delivery-row");
    expect(rows).toHaveLength(3);
    const cells = rows.map((row) => within(row).getAllByRole("cell"));
    expect(cells[0][1]).toHaveTextContent("Delivered");
    expect(cells[0][2]).toHaveTextContent("200");
    expect(cells[0][3]).toHaveTextContent("42 ms");
    expect(cells[0][4]).toHaveTextContent("—");
    expect(cells[1][1]).toHaveTextContent("Failed");
    expect(cells[1][2]).toHaveTextContent("503");
    expect(cells[1][3]).toHaveTextContent("1,500 ms");
    expect(cells[2][2]).toHaveTextContent("—");
    expect(cells[2][4]).toHaveTextContent("timed out");

    await events.click(within(quietRow).getByRole("button", { name: "Delivery log" }));
    expect(await within(quietRow).findByText("No deliveries yet.")).toBeInTheDocument();

    await events.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(within(busyRow).queryByRole("region", { name: "Delivery log" })).not.toBeInTheDocument();
  });

  it("reads an open delivery log again after a test", async () => {
    const hook = makeWebhook();
    let log: WebhookDelivery[] = [];
    webhooksServer([hook], {}, (url, init) => {
      if (url === `${LIST}/${hook.id}/deliveries`) return jsonResponse(log);
      if (url === `${LIST}/${hook.id}/test` && init.method === "POST") {
        log = [makeDelivery({ statusCode: 204, latencyMs: 7 })];
        return jsonResponse(log[0]);
      }
      return undefined;
    });
    const events = renderCard();
    await events.click(await screen.findByRole("button", { name: "Delivery log" }));
    expect(await screen.findByText("No deliveries yet.")).toBeInTheDocument();
    await events.click(screen.getByRole("button", { name: "Send test" }));
    const row = await screen.findByTestId("delivery-row");
    expect(row).toHaveTextContent("204");
    expect(row).toHaveTextContent("7 ms");
  });
});

describe("WebhooksCard: endpoints for one trading account", () => {
  const main = makeTradingAccount({ name: "Main", current: true });
  const ira = makeTradingAccount({ name: "IRA" });

  /** The webhook endpoints, and GET /api/accounts answering `accounts`; `extra` answers first. */
  function withAccounts(accounts: TradingAccounts, endpoints: WebhookEndpoint[] = [], extra: Handler = () => undefined) {
    return webhooksServer(endpoints, {}, (url, init) => extra(url, init) ?? (url === "/api/accounts" ? jsonResponse(accounts) : undefined));
  }

  const posts = (fetchMock: ReturnType<typeof mockFetch>) =>
    callsTo(fetchMock, "POST", LIST).map(([, init]) => JSON.parse(String(init?.body)));

  it("offers no Account choice to a user who holds one account, and says nothing of unscoped endpoints", async () => {
    const { fetchMock } = withAccounts(makeTradingAccounts([main]), [
      makeWebhook({ url: "https://scoped.example.com/hook", eventType: "position_closed", accountId: main.id }),
      makeWebhook({ url: "https://plain.example.com/hook" }),
    ]);
    const events = renderCard();
    const [scoped, plain] = await screen.findAllByTestId("webhook-row");
    // An endpoint scoped to the one account still names it (the list of accounts is read by now).
    expect(await within(scoped).findByText("Main")).toBeInTheDocument();
    expect(within(plain).queryByText("All accounts")).not.toBeInTheDocument();

    const dialog = await openAddDialog(events);
    expect(within(dialog).queryByLabelText("Account")).not.toBeInTheDocument();
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://hooks.example.com/strikeline");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    await screen.findByRole("dialog", { name: "Your webhook signing secret" });
    expect(posts(fetchMock)).toEqual([{ url: "https://hooks.example.com/strikeline", eventType: "new_signal" }]);
  });

  it("shows each endpoint's scope: its account's name, or 'All accounts' when unscoped", async () => {
    withAccounts(makeTradingAccounts([main, ira], 10), [
      makeWebhook({ url: "https://ira.example.com/hook", eventType: "position_closed", accountId: ira.id }),
      makeWebhook({ url: "https://all.example.com/hook", eventType: "position_closed" }),
    ]);
    renderCard();
    const [scoped, plain] = await screen.findAllByTestId("webhook-row");
    expect(await within(scoped).findByText("IRA")).toBeInTheDocument();
    expect(within(scoped).queryByText("All accounts")).not.toBeInTheDocument();
    expect(within(plain).getByText("All accounts")).toBeInTheDocument();
  });

  it("with two accounts: the default sends no accountId, choosing IRA sends IRA's id", async () => {
    const { fetchMock } = withAccounts(makeTradingAccounts([main, ira], 10));
    const events = renderCard();

    let dialog = await openAddDialog(events);
    const select = await within(dialog).findByLabelText("Account");
    expect(select).toHaveDisplayValue("All accounts");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["All accounts", "Main", "IRA"]);
    expect(select).toHaveAccessibleDescription("Only narrows Position closed events: other events are sent whatever the account.");
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://all.example.com/hook");
    await events.selectOptions(within(dialog).getByLabelText("Event type"), "Position closed");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    await events.click(
      within(await screen.findByRole("dialog", { name: "Your webhook signing secret" })).getByRole("button", { name: "Done" }),
    );
    expect(posts(fetchMock)).toEqual([{ url: "https://all.example.com/hook", eventType: "position_closed" }]);
    expect(within(screen.getByTestId("webhook-row")).getByText("All accounts")).toBeInTheDocument();

    dialog = await openAddDialog(events);
    expect(within(dialog).getByLabelText("Account")).toHaveDisplayValue("All accounts");
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://ira.example.com/hook");
    await events.selectOptions(within(dialog).getByLabelText("Event type"), "Position closed");
    await events.selectOptions(within(dialog).getByLabelText("Account"), "IRA");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    await events.click(
      within(await screen.findByRole("dialog", { name: "Your webhook signing secret" })).getByRole("button", { name: "Done" }),
    );
    expect(posts(fetchMock)[1]).toEqual({ url: "https://ira.example.com/hook", eventType: "position_closed", accountId: ira.id });
    const [newest] = screen.getAllByTestId("webhook-row");
    expect(newest).toHaveTextContent("https://ira.example.com/hook");
    expect(within(newest).getByText("IRA")).toBeInTheDocument();
  });

  it("puts the server's 422 on accountId under the Account select", async () => {
    const reason = "Choose one of your trading accounts";
    withAccounts(makeTradingAccounts([main, ira], 10), [], (url, init) =>
      url === LIST && init.method === "POST"
        ? problem(422, "Invalid request", "The account is not one of yours.", [{ field: "accountId", message: reason }])
        : undefined,
    );
    const events = renderCard();
    const dialog = await openAddDialog(events);
    const select = await within(dialog).findByLabelText("Account");
    await events.type(within(dialog).getByLabelText("Endpoint URL"), "https://ira.example.com/hook");
    await events.selectOptions(select, "IRA");
    await events.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    await waitFor(() => expect(select).toHaveAttribute("aria-invalid", "true"));
    expect(select).toHaveAccessibleDescription(reason);
    expect(select).toHaveFocus();
    expect(within(dialog).getByLabelText("Endpoint URL")).toHaveAttribute("aria-invalid", "false");
    expect(await screen.findByText("Endpoint Not Added")).toBeInTheDocument();
  });
});
