import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NewPriceAlert, PriceAlert } from "@/lib/api/models";
import { useLiveEvents } from "@/lib/live-events";
import { setMoneyDisplay } from "@/lib/money-display";
import { resetToastsForTests } from "@/lib/toast";
import { makePriceAlert, makeStockPrice, MockEventSource } from "@/test/fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { MarketOverview } from "./market-overview";
import { PriceAlertsCard } from "./price-alerts-card";

beforeEach(() => MockEventSource.install());
afterEach(() => {
  vi.unstubAllGlobals();
  resetToastsForTests();
  setMoneyDisplay(null);
});

const WATCHLIST = [
  makeStockPrice({ symbol: "AAPL", currentPrice: 248.1 }),
  makeStockPrice({ symbol: "MSFT", companyName: "Microsoft Corporation", currentPrice: 410 }),
];

/** A server holding `initial` alerts over WATCHLIST; POST answers as the real one does. */
function api(initial: PriceAlert[] = []) {
  let alerts = initial;
  const fetchMock = mockFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url === "/api/stock-prices") return jsonResponse(WATCHLIST);
    if (url === "/api/price-alerts" && method === "GET") return jsonResponse(alerts);
    if (url === "/api/price-alerts" && method === "POST") {
      const body = JSON.parse(String(init.body)) as NewPriceAlert;
      if (!WATCHLIST.some((s) => s.symbol === body.symbol)) {
        return problem(422, "Unprocessable Entity", "The request has invalid fields.", [
          { field: "symbol", message: "Add the symbol to the watchlist first" },
        ]);
      }
      const created = makePriceAlert({ ...body, createdAt: new Date().toISOString() });
      alerts = [created, ...alerts];
      return jsonResponse(created, 201);
    }
    const one = url.match(/^\/api\/price-alerts\/([^/]+)$/);
    if (one && method === "DELETE") {
      alerts = alerts.filter((a) => a.id !== one[1]);
      return new Response(null, { status: 204 });
    }
    return jsonResponse([]);
  });
  return {
    fetchMock,
    set: (next: PriceAlert[]) => {
      alerts = next;
    },
  };
}

/** The body of the POST to /api/price-alerts. */
function posted(fetchMock: ReturnType<typeof mockFetch>): unknown {
  const call = fetchMock.mock.calls.find(([url, init]) => String(url) === "/api/price-alerts" && init?.method === "POST");
  if (!call) throw new Error("no alert was posted");
  return JSON.parse(String(call[1]?.body));
}

function toastTitle(title: string) {
  return screen.findByText(title, { selector: '[data-slot="toast-title"]' });
}

function LiveCard() {
  useLiveEvents();
  return <PriceAlertsCard />;
}

describe("PriceAlertsCard", () => {
  it("shows the empty state when the user has no alert", async () => {
    api([]);
    renderWithProviders(<PriceAlertsCard />);
    expect(await screen.findByText("No price alerts yet")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Price alerts" })).not.toBeInTheDocument();
  });

  it("lists each alert with its symbol, direction, price, status and time", async () => {
    api([
      makePriceAlert({ symbol: "MSFT", direction: "below", targetPrice: 400.5 }),
      makePriceAlert({
        symbol: "AAPL",
        direction: "above",
        targetPrice: 245,
        status: "triggered",
        triggeredAt: "2026-11-23T15:00:00Z",
        triggeredPrice: 245.3,
      }),
    ]);
    renderWithProviders(<PriceAlertsCard />);
    const list = await screen.findByRole("list", { name: "Price alerts" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent(/^MSFTBelow \$400\.50ActiveSet /);
    expect(second).toHaveTextContent(/^AAPLAbove \$245\.00TriggeredTriggered .+ at \$245\.30Delete alert AAPL above \$245\.00$/);
  });

  it("keeps targets and the quote in US dollars, labelled, when money is shown in euros", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    api([makePriceAlert({ symbol: "MSFT", direction: "below", targetPrice: 400.5 })]);
    renderWithProviders(<PriceAlertsCard />);
    const list = await screen.findByRole("list", { name: "Price alerts" });
    expect(within(list).getByRole("listitem")).toHaveTextContent(/^MSFTBelow US\$400\.50Active/);
    const form = screen.getByRole("form", { name: "Set a price alert" });
    await userEvent.setup().type(within(form).getByLabelText("Symbol"), "msft");
    expect(await within(form).findByText("MSFT is at US$410.00 now.")).toBeInTheDocument();
    expect(screen.queryByText(/€/)).not.toBeInTheDocument();
  });

  it("sets an alert: the body sent, a toast, the alert listed and the form cleared", async () => {
    const { fetchMock } = api([]);
    renderWithProviders(<PriceAlertsCard />);
    const user = userEvent.setup();
    const form = await screen.findByRole("form", { name: "Set a price alert" });
    await screen.findByText("No price alerts yet");
    await user.type(within(form).getByLabelText("Symbol"), "msft");
    expect(await within(form).findByText("MSFT is at $410.00 now.")).toBeInTheDocument();
    await user.selectOptions(within(form).getByLabelText("Direction"), "Below");
    await user.type(within(form).getByLabelText("Target price (USD)"), "399.99");
    await user.click(within(form).getByRole("button", { name: "Set Alert" }));

    expect(await toastTitle("Price Alert Set")).toBeInTheDocument();
    expect(screen.getByText("You'll be notified when MSFT below $399.99.")).toBeInTheDocument();
    expect(posted(fetchMock)).toEqual({ symbol: "MSFT", direction: "below", targetPrice: 399.99 });
    const list = await screen.findByRole("list", { name: "Price alerts" });
    expect(within(list).getByTestId("price-alert-row")).toHaveTextContent("MSFTBelow $399.99Active");
    expect(within(form).getByLabelText("Symbol")).toHaveValue("");
    expect(within(form).getByLabelText("Target price (USD)")).toHaveValue(null);
  });

  it("shows the server's field error under the field (422) and keeps the input", async () => {
    api([]);
    renderWithProviders(<PriceAlertsCard />);
    const user = userEvent.setup();
    const form = await screen.findByRole("form", { name: "Set a price alert" });
    const symbol = within(form).getByLabelText("Symbol");
    await user.type(symbol, "ZZZZ");
    await user.type(within(form).getByLabelText("Target price (USD)"), "12");
    await user.click(within(form).getByRole("button", { name: "Set Alert" }));

    expect(await within(form).findByText("Add the symbol to the watchlist first")).toBeInTheDocument();
    expect(symbol).toHaveAttribute("aria-invalid", "true");
    expect(symbol).toHaveAccessibleDescription("Add the symbol to the watchlist first");
    expect(symbol).toHaveFocus();
    expect(symbol).toHaveValue("ZZZZ");
    expect(await toastTitle("Price Alert Not Set")).toBeInTheDocument();
    expect(screen.getByText("No price alerts yet")).toBeInTheDocument();
  });

  it("checks the fields before sending", async () => {
    const { fetchMock } = api([]);
    renderWithProviders(<PriceAlertsCard />);
    const user = userEvent.setup();
    const form = await screen.findByRole("form", { name: "Set a price alert" });
    await user.type(within(form).getByLabelText("Target price (USD)"), "1.234");
    await user.click(within(form).getByRole("button", { name: "Set Alert" }));
    expect(await within(form).findByText("Enter a stock symbol")).toBeInTheDocument();
    expect(within(form).getByText("Use at most two decimals")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("deletes an alert after confirming", async () => {
    const keep = makePriceAlert({ symbol: "MSFT", direction: "below", targetPrice: 400 });
    const gone = makePriceAlert({ symbol: "AAPL", direction: "above", targetPrice: 250 });
    const { fetchMock } = api([keep, gone]);
    renderWithProviders(<PriceAlertsCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete alert AAPL above $250.00" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete this price alert?" });
    expect(confirm).toHaveTextContent("You will not be notified when AAPL above $250.00.");

    // Cancel keeps it.
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(false);

    await user.click(screen.getByRole("button", { name: "Delete alert AAPL above $250.00" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete Alert" }));
    expect(await toastTitle("Price Alert Deleted")).toBeInTheDocument();
    const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === "DELETE").map(([url]) => String(url));
    expect(deletes).toEqual([`/api/price-alerts/${gone.id}`]);
    await waitFor(() => expect(screen.getAllByTestId("price-alert-row")).toHaveLength(1));
    expect(screen.getByTestId("price-alert-row")).toHaveTextContent("MSFT");
  });

  it("reads the alerts again on the event stream's alerts topic", async () => {
    const alert = makePriceAlert();
    const server = api([alert]);
    renderWithProviders(<LiveCard />);
    expect(await screen.findByText("Active")).toBeInTheDocument();
    server.set([{ ...alert, status: "triggered", triggeredAt: "2026-11-23T15:00:00Z", triggeredPrice: 250.4 }]);
    MockEventSource.instances[0].emit("alerts");
    expect(await screen.findByText(/at \$250\.40/)).toBeInTheDocument();
  });
});

describe("Set price alert from a stock row", () => {
  it("opens the form on that symbol and sets the alert", async () => {
    const { fetchMock } = api([]);
    renderWithProviders(<MarketOverview />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "All Stocks" }));
    await user.click(screen.getByRole("button", { name: "Set price alert for MSFT" }));
    const dialog = await screen.findByRole("dialog", { name: "Set price alert" });
    expect(within(dialog).getByLabelText("Symbol")).toHaveValue("MSFT");
    expect(within(dialog).getByText("MSFT is at $410.00 now.")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Target price (USD)"), "450");
    await user.click(within(dialog).getByRole("button", { name: "Set Alert" }));
    expect(await toastTitle("Price Alert Set")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Set price alert" })).not.toBeInTheDocument());
    expect(posted(fetchMock)).toEqual({ symbol: "MSFT", direction: "above", targetPrice: 450 });
  });
});
