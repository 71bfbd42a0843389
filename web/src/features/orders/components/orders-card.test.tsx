import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OrderView } from "@/lib/api/models";
import { refreshAccountScoped } from "@/lib/api/trading-accounts";
import { formatDateTime } from "@/lib/dates";
import { queryKeys } from "@/lib/query-keys";
import { makeOrder, makeOrderLeg, makeStandingOrder, NOT_STANDING, ordersServer } from "@/test/order-fixtures";
import { createTestQueryClient, jsonResponse, problem, renderWithProviders } from "@/test/utils";
import { OrdersCard } from "./orders-card";

afterEach(() => vi.unstubAllGlobals());

const rows = () => screen.getAllByTestId("order-row");

/** The phone layout's stacked orders. */
const items = () => screen.getAllByTestId("order-item");

/**
 * The table (from 768 px). jsdom applies no CSS, so the phone list is rendered beside it: a
 * query for a button every order has in both layouts is made within the table.
 */
const table = async () => within(await screen.findByRole("region", { name: "Orders table" }));

/** The cells of a row, as their text. */
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

/** A stacked order's facts, as [label, value] pairs. */
const facts = (item: HTMLElement) => {
  const values = within(item).getAllByRole("definition");
  return within(item)
    .getAllByRole("term")
    .map((term, i) => [term.textContent, values[i].textContent]);
};

/** The POSTs sent, by URL. */
const posts = (fetchMock: ReturnType<typeof ordersServer>["fetchMock"]) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === "POST").map(([url]) => String(url));

const gets = (fetchMock: ReturnType<typeof ordersServer>["fetchMock"]) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === "/api/orders" && (init?.method ?? "GET") === "GET").length;

const rejected = makeOrder({
  underlying: "TSLA",
  legs: [makeOrderLeg({ right: "put", strike: 300, expiration: "2027-01-15" })],
  quantity: 1,
  filledUnits: 0,
  status: "rejected",
  reason: "One contract costs $300.00, more than Main's maximum position size of $100.00.",
  fills: [],
  createdAt: "2026-11-23T15:00:00Z",
});

describe("OrdersCard", () => {
  it("says there are no orders yet, and what brings one", async () => {
    ordersServer([]);
    renderWithProviders(<OrdersCard />);
    expect(screen.getByRole("status", { name: "Loading orders" })).toHaveAttribute("aria-busy", "true");
    expect(await screen.findByText("No orders yet")).toBeInTheDocument();
    expect(screen.getByText("When the automation takes a signal in this account, its order appears here.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch orders' when they cannot be read, and tries again", async () => {
    let fail = true;
    ordersServer([makeOrder()], (url) => (url === "/api/orders" && fail ? problem(500, "Internal Server Error") : undefined));
    renderWithProviders(<OrdersCard />);
    expect(await screen.findByText("Failed to fetch orders")).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("order-row")).toBeInTheDocument();
  });

  it("lists each order with when it was placed, its contract, fill, status, price, commission and reason", async () => {
    const filled = makeOrder();
    const straddle = makeOrder({
      underlying: "SPY",
      legs: [makeOrderLeg({ strike: 580 }), makeOrderLeg({ right: "put", strike: 580 })],
      quantity: 1,
      filledUnits: 1,
      fills: [{ units: 1, netPrice: 12.12, commission: 1.3, cashOut: 1213.3, filledAt: "2026-11-23T16:00:01Z" }],
    });
    ordersServer([filled, straddle, rejected]);
    renderWithProviders(<OrdersCard />);

    const table = await screen.findByRole("table");
    expect(table.className).toContain("min-w-[900px]");
    expect(screen.getByRole("region", { name: "Orders table" })).toHaveClass("overflow-x-auto");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Placed", "Contract", "Qty", "Status", "Fill price", "Commission", "Reason", "Actions"]);

    const [first, second, third] = rows();
    expect(cells(first)).toEqual([
      formatDateTime(filled.createdAt),
      "AAPL CALL $190 12/18",
      "2/22 of 2 filled",
      "Filled",
      "$3.03",
      "$1.30",
      "—",
      "",
    ]);
    expect(within(first).getByText(formatDateTime(filled.createdAt))).toHaveAttribute("dateTime", filled.createdAt);
    // A straddle: both legs, one line each.
    expect(within(second).getByText("SPY CALL $580 12/18")).toBeInTheDocument();
    expect(within(second).getByText("SPY PUT $580 12/18")).toBeInTheDocument();
    expect(cells(third)).toEqual([
      formatDateTime(rejected.createdAt),
      "TSLA PUT $300 1/15",
      "0/10 of 1 filled",
      "Rejected",
      "—",
      "—",
      "One contract costs $300.00, more than Main's maximum position size of $100.00.",
      "",
    ]);
    // Nothing in these can be cancelled.
    expect(screen.queryByRole("button", { name: /^Cancel/ })).not.toBeInTheDocument();
  });

  it("colours each status and offers Cancel on the standing ones only", async () => {
    const statuses: OrderView["status"][] = ["new", "accepted", "partially_filled", "filled", "cancelled", "rejected"];
    ordersServer(
      statuses.map((status) =>
        makeOrder({
          status,
          filledUnits: status === "partially_filled" ? 1 : status === "filled" ? 2 : 0,
          reason: status === "cancelled" ? "Not filled within 30 minutes." : null,
        }),
      ),
    );
    renderWithProviders(<OrdersCard />);
    await screen.findByRole("table");
    const badges = rows().map((row) => within(row).getByText(/^(New|Accepted|Partially filled|Filled|Cancelled|Rejected)$/));
    expect(badges.map((b) => [b.textContent, b.dataset.status])).toEqual([
      ["New", "new"],
      ["Accepted", "accepted"],
      ["Partially filled", "partially_filled"],
      ["Filled", "filled"],
      ["Cancelled", "cancelled"],
      ["Rejected", "rejected"],
    ]);
    expect(badges[0].className).toMatch(/text-primary-strong/);
    expect(badges[2].className).toMatch(/text-amber-800/);
    expect(badges[3].className).toMatch(/text-positive-strong/);
    expect(badges[4].className).toMatch(/text-muted-foreground/);
    expect(badges[5].className).toMatch(/text-destructive-strong/);
    expect(rows()[4]).toHaveTextContent("Not filled within 30 minutes.");

    const cancels = rows().map((row) => within(row).queryByRole("button", { name: /^Cancel order/ }) != null);
    expect(cancels).toEqual([true, true, true, false, false, false]);
    expect(within(rows()[0]).getByRole("button", { name: "Cancel order AAPL CALL $190 12/18" })).toBeEnabled();
  });

  it("stacks each order on phones: its contract, status, fill, price, commission and reason, without scrolling sideways", async () => {
    const filled = makeOrder();
    const partlyCancelled = makeOrder({
      underlying: "SPY",
      legs: [makeOrderLeg({ strike: 580 }), makeOrderLeg({ right: "put", strike: 580 })],
      quantity: 3,
      filledUnits: 1,
      status: "cancelled",
      reason: "Not filled within 30 minutes.",
      fills: [{ units: 1, netPrice: 12.12, commission: 1.3, cashOut: 1213.3, filledAt: "2026-11-23T16:00:01Z" }],
    });
    const standing = makeStandingOrder();
    ordersServer([filled, partlyCancelled, rejected, standing]);
    renderWithProviders(<OrdersCard />);

    // The table from 768 px, the list below it.
    const list = await screen.findByRole("list", { name: "Orders" });
    expect(list).toHaveClass("md:hidden");
    expect(screen.getByRole("region", { name: "Orders table" })).toHaveClass("hidden", "md:block");
    expect(items()).toHaveLength(4);
    expect(
      within(list)
        .getAllByRole("article")
        .map((item) => item.getAttribute("aria-label")),
    ).toEqual([
      "AAPL CALL $190 12/18 order",
      "SPY CALL $580 12/18 + SPY PUT $580 12/18 order",
      "TSLA PUT $300 1/15 order",
      "AAPL CALL $190 12/18 order",
    ]);

    const [first, second, third, fourth] = items();
    expect(within(first).getByText("Filled")).toHaveAttribute("data-status", "filled");
    expect(within(first).getByText(formatDateTime(filled.createdAt))).toHaveAttribute("dateTime", filled.createdAt);
    expect(facts(first)).toEqual([
      ["Qty", "2/22 of 2 filled"],
      ["Fill price", "$3.03"],
      ["Commission", "$1.30"],
    ]);
    // A straddle: both legs, one line each; what filled before the cancel, and why it was cancelled.
    expect(within(second).getByText("SPY CALL $580 12/18")).toBeInTheDocument();
    expect(within(second).getByText("SPY PUT $580 12/18")).toBeInTheDocument();
    expect(within(second).getByText("Cancelled")).toHaveAttribute("data-status", "cancelled");
    expect(facts(second)).toEqual([
      ["Qty", "1/31 of 3 filled"],
      ["Fill price", "$12.12"],
      ["Commission", "$1.30"],
      ["Reason", "Not filled within 30 minutes."],
    ]);
    // Nothing filled: no price, only why it was refused.
    expect(within(third).getByText("Rejected")).toHaveAttribute("data-status", "rejected");
    expect(facts(third)).toEqual([
      ["Qty", "0/10 of 1 filled"],
      ["Reason", "One contract costs $300.00, more than Main's maximum position size of $100.00."],
    ]);
    expect(within(fourth).getByText("Accepted")).toHaveAttribute("data-status", "accepted");
    expect(facts(fourth)).toEqual([["Qty", "0/20 of 2 filled"]]);

    // Only the standing order can be cancelled.
    const cancels = items().map((item) => within(item).queryByRole("button", { name: /^Cancel order/ }) != null);
    expect(cancels).toEqual([false, false, false, true]);
  });

  it("cancels a standing order from its stacked item, through the same dialog", async () => {
    const standing = makeStandingOrder({ status: "partially_filled", filledUnits: 1, fills: makeOrder().fills });
    const server = ordersServer([standing]);
    renderWithProviders(<OrdersCard />);
    const user = userEvent.setup();

    const item = await screen.findByRole("article", { name: "AAPL CALL $190 12/18 order" });
    await user.click(within(item).getByRole("button", { name: "Cancel order AAPL CALL $190 12/18" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel this order?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel order" }));

    expect(await screen.findByText("Order Cancelled")).toBeInTheDocument();
    expect(posts(server.fetchMock)).toEqual([`/api/orders/${standing.id}/cancel`]);
    await waitFor(() => expect(within(items()[0]).getByText("Cancelled")).toBeInTheDocument());
    expect(facts(items()[0])).toContainEqual(["Reason", "Cancelled by you."]);
    expect(within(items()[0]).queryByRole("button", { name: /^Cancel order/ })).not.toBeInTheDocument();
  });

  it("shows 10 orders per page", async () => {
    ordersServer(Array.from({ length: 12 }, () => makeOrder()));
    renderWithProviders(<OrdersCard />);
    await screen.findByRole("table");
    expect(rows()).toHaveLength(10);
    expect(screen.getByText("Showing 1 to 10 of 12 orders")).toBeInTheDocument();
    await userEvent.setup().click(within(screen.getByRole("navigation", { name: "Orders pages" })).getByRole("button", { name: "Page 2" }));
    expect(rows()).toHaveLength(2);
  });

  it("filters by status with each chip's count, paging within the filter, and says when a filter holds none", async () => {
    const refused = Array.from({ length: 11 }, () =>
      makeOrder({ status: "rejected", filledUnits: 0, fills: [], reason: "The capital is spent." }),
    );
    ordersServer([...refused, makeOrder(), makeOrder()]);
    renderWithProviders(<OrdersCard />);
    await screen.findByRole("table");
    const chips = within(screen.getByRole("group", { name: "Show orders" }));
    expect(chips.getAllByRole("button").map((b) => b.textContent)).toEqual(["All13", "Open0", "Filled2", "Rejected or cancelled11"]);
    expect(chips.getByRole("button", { name: /^All/ })).toHaveAttribute("aria-pressed", "true");
    // Newest first: the refusals fill the first page.
    expect(rows().every((row) => within(row).queryByText("Filled") === null)).toBe(true);

    const user = userEvent.setup();
    await user.click(chips.getByRole("button", { name: /^Filled/ }));
    expect(chips.getByRole("button", { name: /^Filled/ })).toHaveAttribute("aria-pressed", "true");
    expect(rows()).toHaveLength(2);
    expect(rows().every((row) => within(row).getByText("Filled"))).toBe(true);
    expect(screen.getByText("Showing 1 to 2 of 2 orders")).toBeInTheDocument();

    await user.click(chips.getByRole("button", { name: /^Rejected or cancelled/ }));
    expect(rows()).toHaveLength(10);
    await user.click(within(screen.getByRole("navigation", { name: "Orders pages" })).getByRole("button", { name: "Page 2" }));
    expect(rows()).toHaveLength(1);

    await user.click(chips.getByRole("button", { name: /^Open/ }));
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.getByTestId("orders-filter-empty")).toHaveTextContent("No open orders among the latest 13.");
  });

  it("cancels a standing order after asking, then reads the orders and the positions again", async () => {
    const standing = makeStandingOrder();
    const server = ordersServer([standing, makeOrder()]);
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(queryKeys.portfolio.positions(), []);
    renderWithProviders(<OrdersCard />, { queryClient });
    const user = userEvent.setup();

    await user.click((await table()).getByRole("button", { name: "Cancel order AAPL CALL $190 12/18" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel this order?" });
    expect(dialog).toHaveTextContent("AAPL CALL $190 12/18, 0 of 2 filled.");
    // Keeping it sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Keep order" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(posts(server.fetchMock)).toEqual([]);

    await user.click((await table()).getByRole("button", { name: "Cancel order AAPL CALL $190 12/18" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel order" }));

    expect(await screen.findByText("Order Cancelled")).toBeInTheDocument();
    expect(screen.getByText("AAPL CALL $190 12/18 is cancelled before anything filled.")).toBeInTheDocument();
    expect(posts(server.fetchMock)).toEqual([`/api/orders/${standing.id}/cancel`]);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(within(rows()[0]).getByText("Cancelled")).toBeInTheDocument());
    expect(rows()[0]).toHaveTextContent("Cancelled by you.");
    expect(screen.queryByRole("button", { name: /^Cancel order/ })).not.toBeInTheDocument();
    // The orders are read again, and the automated positions are marked stale.
    await waitFor(() => expect(gets(server.fetchMock)).toBe(2));
    expect(queryClient.getQueryState(queryKeys.portfolio.positions())?.isInvalidated).toBe(true);
  });

  it("disables the buttons while the cancel is sent", async () => {
    const standing = makeStandingOrder({ status: "partially_filled", filledUnits: 1 });
    let release: (response: Response) => void = () => {};
    ordersServer([standing], (url, init) =>
      init.method === "POST" && url.endsWith("/cancel")
        ? new Promise<Response>((resolve) => {
            release = resolve;
          })
        : undefined,
    );
    renderWithProviders(<OrdersCard />);
    const user = userEvent.setup();
    await user.click((await table()).getByRole("button", { name: /^Cancel order/ }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Cancel order" }));
    expect(await within(dialog).findByRole("button", { name: "Cancelling..." })).toBeDisabled();
    // Behind the dialog (hidden from the accessibility tree while it is open), the row's button waits too.
    expect(within(rows()[0]).getByRole("button", { name: /^Cancelling\.\.\. order/, hidden: true })).toBeDisabled();

    release(jsonResponse({ ...standing, status: "cancelled", reason: "Cancelled by you." }));
    expect(await screen.findByText("Order Cancelled")).toBeInTheDocument();
    expect(screen.getByText("AAPL CALL $190 12/18 is cancelled. What filled (1 of 2) stays in your portfolio.")).toBeInTheDocument();
  });

  it("says why a cancel was refused, closes the dialog and shows the order as it stands (409)", async () => {
    const standing = makeStandingOrder();
    const server = ordersServer([standing]);
    renderWithProviders(<OrdersCard />);
    const user = userEvent.setup();
    await user.click((await table()).getByRole("button", { name: /^Cancel order/ }));
    // It filled meanwhile.
    server.set([{ ...standing, status: "filled", filledUnits: 2, fills: makeOrder().fills }]);
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel order" }));

    expect(await screen.findByText("Order Not Cancelled")).toBeInTheDocument();
    expect(screen.getByText(NOT_STANDING)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(within(rows()[0]).getByText("Filled")).toBeInTheDocument());
  });

  it("keeps the dialog open when the server fails, to try again", async () => {
    ordersServer([makeStandingOrder()], (_url, init) =>
      init.method === "POST" ? problem(500, "Internal Server Error", "The broker did not answer.") : undefined,
    );
    renderWithProviders(<OrdersCard />);
    const user = userEvent.setup();
    await user.click((await table()).getByRole("button", { name: /^Cancel order/ }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel order" }));
    expect(await screen.findByText("The broker did not answer.")).toBeInTheDocument();
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    expect(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Cancel order" })).toBeEnabled();
  });

  it("shows the new account's orders after a switch", async () => {
    let current = "main";
    const ira = makeOrder({ underlying: "MSFT", legs: [makeOrderLeg({ strike: 420 })] });
    ordersServer([], (url) => (url === "/api/orders" ? jsonResponse(current === "main" ? [makeOrder()] : [ira]) : undefined));
    const { queryClient } = renderWithProviders(<OrdersCard />);
    expect((await table()).getByText("AAPL CALL $190 12/18")).toBeInTheDocument();

    current = "ira";
    await refreshAccountScoped(queryClient);
    expect(await (await table()).findByText("MSFT CALL $420 12/18")).toBeInTheDocument();
    expect(screen.queryByText("AAPL CALL $190 12/18")).not.toBeInTheDocument();
  });
});
