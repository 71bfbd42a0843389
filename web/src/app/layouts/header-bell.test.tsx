import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NotificationView, Signal } from "@/lib/api/models";
import {
  isSignalList,
  makeAnalysis,
  makeLockedSignal,
  makeNotification,
  makeSignal,
  makeSignals,
  notificationList,
  signalPage,
  signalPageResponse,
} from "@/test/fixtures";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { HeaderBell } from "./header-bell";

afterEach(() => vi.unstubAllGlobals());

/** The bell's two sources: GET /api/notifications and every page of the active signals. */
function api({ active = [], notifications = [] }: { active?: Signal[]; notifications?: NotificationView[] }) {
  return mockFetch((url) => {
    if (url === "/api/notifications") return jsonResponse(notificationList(notifications));
    if (url.startsWith("/api/signals?status=active&limit=200")) return signalPageResponse(url, active);
    if (isSignalList(url)) return jsonResponse(signalPage([]));
    if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
    return jsonResponse([]);
  });
}

async function openBell(name: RegExp | string = /^Notifications: \d+ unread$/) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name }));
  return { user, dialog: await screen.findByRole("dialog", { name: "Notifications" }) };
}

describe("HeaderBell (notifications and active signals)", () => {
  it("badges the unread notifications, not the active signals", async () => {
    api({ active: makeSignals(4), notifications: [makeNotification(), makeNotification({ read: true })] });
    renderWithProviders(<HeaderBell />);
    expect(await screen.findByRole("button", { name: "Notifications: 1 unread" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-count")).toHaveTextContent("1");
  });

  it("counts the active signals from the server on the Active signals tab, locked ones left out", async () => {
    api({ active: [...makeSignals(12), makeLockedSignal()] });
    renderWithProviders(<HeaderBell />);
    const { user, dialog } = await openBell("Notifications: 0 unread");
    const tab = within(dialog).getByRole("tab", { name: /^Active signals/ });
    await vi.waitFor(() => expect(tab).toHaveTextContent("Active signals12"));
    await user.click(tab);
    const list = await within(dialog).findByRole("list", { name: "Active signals" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(12);
  });

  it("counts the active signals of every page, following the cursor", async () => {
    api({ active: [...makeSignals(230), makeLockedSignal()] });
    renderWithProviders(<HeaderBell />);
    const { dialog } = await openBell("Notifications: 0 unread");
    await vi.waitFor(() => expect(within(dialog).getByRole("tab", { name: /^Active signals/ })).toHaveTextContent("230"));
  });

  it("opens the details of an active signal from its tab", async () => {
    api({ active: [makeSignal({ symbol: "MSFT", companyName: "Microsoft Corporation" })] });
    renderWithProviders(<HeaderBell />);
    const { user, dialog } = await openBell("Notifications: 0 unread");
    await user.click(within(dialog).getByRole("tab", { name: /^Active signals/ }));
    const list = await within(dialog).findByRole("list", { name: "Active signals" });
    await user.click(within(list).getByRole("button", { name: /MSFT/ }));
    expect(await screen.findByRole("heading", { name: "MSFT" })).toBeInTheDocument();
  });
});
