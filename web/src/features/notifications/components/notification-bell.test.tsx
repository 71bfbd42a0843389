import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { NotificationList } from "@/lib/api/models";
import { useLiveEvents } from "@/lib/live-events";
import { makeNotification, MockEventSource, notificationList } from "@/test/fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { bellLabel } from "../lib/notifications";
import { NotificationBell } from "./notification-bell";

beforeEach(() => MockEventSource.install());
afterEach(() => vi.unstubAllGlobals());

/** A server holding `list`: POSTs mark read as the real one does. */
function api(initial: NotificationList) {
  let list = initial;
  const fetchMock = mockFetch((url, init) => {
    const method = init.method ?? "GET";
    if (url === "/api/notifications" && method === "GET") return jsonResponse(list);
    if (url === "/api/notifications/read-all" && method === "POST") {
      const updated = list.unreadCount;
      list = { notifications: list.notifications.map((n) => ({ ...n, read: true })), unreadCount: 0 };
      return jsonResponse({ updated });
    }
    const one = url.match(/^\/api\/notifications\/([^/]+)\/read$/);
    if (one && method === "POST") {
      const found = list.notifications.find((n) => n.id === one[1]);
      if (!found) return problem(404, "Not Found");
      if (!found.read)
        list = {
          notifications: list.notifications.map((n) => (n.id === one[1] ? { ...n, read: true } : n)),
          unreadCount: list.unreadCount - 1,
        };
      return new Response(null, { status: 204 });
    }
    return jsonResponse([]);
  });
  return {
    fetchMock,
    set: (next: NotificationList) => {
      list = next;
    },
    posts: () => fetchMock.mock.calls.filter(([, init]) => init?.method === "POST").map(([url]) => String(url)),
  };
}

function Bell() {
  return <NotificationBell activeSignalCount={2} activeSignals={<p>The active signals list</p>} />;
}

function LiveBell() {
  useLiveEvents();
  return <Bell />;
}

async function openBell(unread: number) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: bellLabel(unread) }));
  return { user, dialog: await screen.findByRole("dialog", { name: "Notifications" }) };
}

describe("NotificationBell", () => {
  it("badges the number of unread notifications, '9+' above 9, and no badge at zero", async () => {
    api(notificationList([makeNotification(), makeNotification(), makeNotification({ read: true })]));
    const first = renderWithProviders(<Bell />);
    expect(await screen.findByRole("button", { name: "Notifications: 2 unread" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-count")).toHaveTextContent("2");
    first.unmount();

    // The server counts the unread among all of them, beyond the 50 it lists.
    api(notificationList([makeNotification()], 12));
    const second = renderWithProviders(<Bell />);
    expect(await screen.findByRole("button", { name: "Notifications: 12 unread" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-count")).toHaveTextContent("9+");
    second.unmount();

    api(notificationList([makeNotification({ read: true })]));
    renderWithProviders(<Bell />);
    expect(await screen.findByRole("button", { name: "Notifications: 0 unread" })).toBeInTheDocument();
    expect(screen.queryByTestId("notification-count")).not.toBeInTheDocument();
  });

  it("lists the notifications newest first with their kind, title, body and time, unread ones marked", async () => {
    // "3 minutes ago" is counted from the browser's clock: hold it at one instant (Date only,
    // so the query's and user-event's timers still run).
    const now = new Date("2026-11-28T15:00:00Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    api(
      notificationList([
        makeNotification({
          kind: "new_signals",
          title: "2 new signals match your preferences",
          body: "New: AAPL, MSFT.",
          createdAt: new Date(now.getTime() - 3 * 60_000).toISOString(),
        }),
        makeNotification({
          kind: "position_closed",
          title: "Position closed",
          body: "Your TSLA CALL closed at its target.",
          read: true,
          createdAt: new Date(now.getTime() - 2 * 3600_000).toISOString(),
        }),
      ]),
    );
    renderWithProviders(<Bell />);
    const { dialog } = await openBell(1);
    expect(within(dialog).getByRole("tab", { name: /^Notifications/ })).toHaveAttribute("aria-selected", "true");
    const list = await within(dialog).findByRole("list", { name: "Notifications" });
    const [first, second] = within(list).getAllByRole("button");
    expect(first).toHaveAccessibleName(/^New signals, unread: 2 new signals match your preferences 3 minutes ago New: AAPL, MSFT\.$/);
    expect(first).toHaveAttribute("data-unread", "true");
    expect(second).toHaveAccessibleName(/^Position closed: Position closed 2 hours ago Your TSLA CALL closed at its target\.$/);
    expect(second).not.toHaveAttribute("data-unread");
    expect(within(dialog).getByText("1 unread")).toBeInTheDocument();
  });

  it("names an order's notification by its kind", async () => {
    api(
      notificationList([
        makeNotification({ kind: "order", title: "Order filled: AAPL CALL $190", body: "2 contracts at $3.03.", link: "/portfolio" }),
      ]),
    );
    renderWithProviders(<Bell />);
    const { dialog } = await openBell(1);
    const list = await within(dialog).findByRole("list", { name: "Notifications" });
    expect(within(list).getByRole("button")).toHaveAccessibleName(/^Order, unread: Order filled: AAPL CALL \$190 /);
  });

  it("marks a notification read when it is opened and follows its link", async () => {
    const note = makeNotification({ title: "AAPL is above $250.00", link: "/portfolio" });
    const server = api(notificationList([note, makeNotification({ title: "Other", link: null })]));
    renderWithProviders(<Bell />);
    const { user, dialog } = await openBell(2);
    await user.click(within(dialog).getByRole("button", { name: /AAPL is above \$250\.00/ }));
    await waitFor(() => expect(server.posts()).toEqual([`/api/notifications/${note.id}/read`]));
    expect(screen.getByTestId("location")).toHaveTextContent("/portfolio");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByRole("button", { name: "Notifications: 1 unread" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-count")).toHaveTextContent("1");
  });

  it("marks one without a link read and stays open; a read one is not posted again", async () => {
    const note = makeNotification({ title: "Payment received", kind: "billing", link: null });
    const server = api(notificationList([note]));
    renderWithProviders(<Bell />);
    const { user, dialog } = await openBell(1);
    await user.click(within(dialog).getByRole("button", { name: /Payment received/ }));
    await waitFor(() =>
      expect(within(dialog).getByRole("button", { name: /^Billing: Payment received/ })).not.toHaveAttribute("data-unread"),
    );
    expect(screen.getByRole("dialog", { name: "Notifications" })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/");
    await user.click(within(dialog).getByRole("button", { name: /Payment received/ }));
    expect(server.posts()).toEqual([`/api/notifications/${note.id}/read`]);
  });

  it("marks all read", async () => {
    const server = api(notificationList([makeNotification(), makeNotification(), makeNotification({ read: true })]));
    renderWithProviders(<Bell />);
    const { user, dialog } = await openBell(2);
    const markAll = within(dialog).getByRole("button", { name: "Mark all read" });
    await user.click(markAll);
    await waitFor(() => expect(server.posts()).toEqual(["/api/notifications/read-all"]));
    await waitFor(() => expect(markAll).toBeDisabled());
    expect(within(dialog).getByText("All caught up")).toBeInTheDocument();
    expect(
      within(dialog)
        .queryAllByRole("button")
        .filter((b) => b.hasAttribute("data-unread")),
    ).toEqual([]);
    expect(screen.getByRole("button", { name: "Notifications: 0 unread", hidden: true })).toBeInTheDocument();
    expect(screen.queryByTestId("notification-count")).not.toBeInTheDocument();
  });

  it("shows 'No notifications yet' when there are none", async () => {
    api(notificationList([]));
    renderWithProviders(<Bell />);
    const { dialog } = await openBell(0);
    expect(await within(dialog).findByText("No notifications yet")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Mark all read" })).not.toBeInTheDocument();
  });

  it("switches to the Active signals tab with its count, and opens on Notifications again", async () => {
    api(notificationList([]));
    renderWithProviders(<Bell />);
    const { user, dialog } = await openBell(0);
    const tab = within(dialog).getByRole("tab", { name: /^Active signals/ });
    expect(tab).toHaveTextContent("2");
    await user.click(tab);
    expect(tab).toHaveAttribute("aria-selected", "true");
    expect(within(dialog).getByText("The active signals list")).toBeInTheDocument();
    expect(within(dialog).queryByText("No notifications yet")).not.toBeInTheDocument();

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const again = await openBell(0);
    expect(within(again.dialog).getByRole("tab", { name: /^Notifications/ })).toHaveAttribute("aria-selected", "true");
  });

  it("reads the notifications again on the event stream's notifications topic", async () => {
    const server = api(notificationList([]));
    renderWithProviders(<LiveBell />);
    expect(await screen.findByRole("button", { name: "Notifications: 0 unread" })).toBeInTheDocument();
    server.set(notificationList([makeNotification(), makeNotification()]));
    MockEventSource.instances[0].emit("notifications");
    expect(await screen.findByRole("button", { name: "Notifications: 2 unread" })).toBeInTheDocument();
  });

  it("says so when the notifications cannot be read", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<Bell />);
    const { dialog } = await openBell(0);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Failed to load notifications");
  });
});
