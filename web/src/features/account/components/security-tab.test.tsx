import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditEntry, SessionView } from "@/lib/api/models";
import { CHROME_MAC, makeAuditEntry, makeSession } from "@/test/settings-fixtures";
import { jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { SecurityTab } from "./security-tab";

afterEach(() => vi.unstubAllGlobals());

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/** 50 entries a page, newest first, older than `before`. */
function auditPage(all: AuditEntry[], url: string): Response {
  const before = new URL(url, "http://localhost").searchParams.get("before");
  const older = before ? all.filter((e) => e.at < before) : all;
  return jsonResponse(older.slice(0, 50));
}

function securityServer({
  sessions = [makeSession({ current: true, userAgent: CHROME_MAC })],
  audit = [] as AuditEntry[],
  extra = (() => undefined) as Handler,
} = {}) {
  let list: SessionView[] = sessions;
  const fetchMock = mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    const method = init.method ?? "GET";
    if (url === "/api/auth/me") return jsonResponse(makeUser());
    if (url === "/api/user/sessions") return jsonResponse(list);
    if (url.startsWith("/api/user/sessions/") && method === "DELETE") {
      const id = decodeURIComponent(url.slice("/api/user/sessions/".length));
      list = list.filter((s) => s.id !== id);
      return new Response(null, { status: 204 });
    }
    if (url.startsWith("/api/user/audit")) return auditPage(audit, url);
    if (url === "/api/user/password") return new Response(null, { status: 204 });
    if (url === "/api/user" && method === "DELETE") return new Response(null, { status: 204 });
    return jsonResponse({});
  });
  return { fetchMock, sessions: () => list };
}

const bodyOfCall = (fetchMock: ReturnType<typeof mockFetch>, url: string, method: string) => {
  const call = fetchMock.mock.calls.find(([u, init]) => String(u) === url && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
};

describe("Change password", () => {
  it("checks the fields before sending", async () => {
    const { fetchMock } = securityServer();
    renderWithProviders(<SecurityTab />);
    const events = userEvent.setup();
    await events.type(screen.getByLabelText("New password"), "short");
    await events.type(screen.getByLabelText("Confirm new password"), "other");
    await events.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Enter your current password")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Current password")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/user/password")).toHaveLength(0);
  });

  it("shows the server's field error on its input", async () => {
    securityServer({
      extra: (url) =>
        url === "/api/user/password"
          ? problem(422, "Unprocessable Entity", "Some values are not valid.", [
              { field: "currentPassword", message: "The password is not correct" },
            ])
          : undefined,
    });
    renderWithProviders(<SecurityTab />);
    const events = userEvent.setup();
    await events.type(screen.getByLabelText("Current password"), "wrong-one");
    await events.type(screen.getByLabelText("New password"), "new-password-1");
    await events.type(screen.getByLabelText("Confirm new password"), "new-password-1");
    await events.click(screen.getByRole("button", { name: "Change Password" }));
    const message = await screen.findByText("The password is not correct");
    const input = screen.getByLabelText("Current password");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAttribute("aria-describedby", message.id);
  });

  it("changes it, switches the API keys off by default, says so and refetches the sessions", async () => {
    const { fetchMock } = securityServer();
    renderWithProviders(<SecurityTab />);
    const events = userEvent.setup();
    await screen.findAllByTestId("session-row");
    const before = fetchMock.mock.calls.filter(([u]) => String(u) === "/api/user/sessions").length;
    await events.type(screen.getByLabelText("Current password"), "correct-horse-42");
    await events.type(screen.getByLabelText("New password"), "battery-staple-7");
    await events.type(screen.getByLabelText("Confirm new password"), "battery-staple-7");
    await events.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Password Changed")).toBeInTheDocument();
    expect(screen.getByText("Other sessions were signed out and your API keys were switched off.")).toBeInTheDocument();
    expect(screen.getByText("Password changed. Other sessions were signed out and your API keys were switched off.")).toHaveAttribute(
      "role",
      "status",
    );
    expect(bodyOfCall(fetchMock, "/api/user/password", "POST")).toEqual({
      currentPassword: "correct-horse-42",
      newPassword: "battery-staple-7",
      revokeApiKeys: true,
    });
    expect(screen.getByRole("checkbox", { name: "Also switch off my API keys" })).toBeChecked();
    expect(screen.getByLabelText("Current password")).toHaveValue("");
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/user/sessions").length).toBeGreaterThan(before));
  });

  it("keeps the API keys on when the box is unticked, and says so", async () => {
    const { fetchMock } = securityServer();
    renderWithProviders(<SecurityTab />);
    const events = userEvent.setup();
    const box = screen.getByRole("checkbox", { name: "Also switch off my API keys" });
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription(/Programs using them stop working/);
    await events.click(box);
    await events.type(screen.getByLabelText("Current password"), "correct-horse-42");
    await events.type(screen.getByLabelText("New password"), "battery-staple-7");
    await events.type(screen.getByLabelText("Confirm new password"), "battery-staple-7");
    await events.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Password Changed")).toBeInTheDocument();
    expect(screen.getByText("Other sessions were signed out. Your API keys still work.")).toBeInTheDocument();
    expect(bodyOfCall(fetchMock, "/api/user/password", "POST")).toMatchObject({ revokeApiKeys: false });
  });
});

describe("Sessions", () => {
  it("marks this device, names browsers and systems, and revokes another session", async () => {
    const other = makeSession({ id: "abc", ip: "198.51.100.4" });
    const server = securityServer({ sessions: [makeSession({ current: true, userAgent: CHROME_MAC, ip: "203.0.113.9" }), other] });
    renderWithProviders(<SecurityTab />);
    const rows = await screen.findAllByTestId("session-row");
    expect(rows[0]).toHaveTextContent("Chrome on macOS");
    expect(rows[0]).toHaveTextContent("This device");
    expect(rows[0]).toHaveTextContent("203.0.113.9");
    expect(within(rows[0]).queryByRole("button")).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("Firefox on Windows");
    expect(rows[1]).toHaveTextContent("Last active 5 minutes ago");

    await userEvent.setup().click(within(rows[1]).getByRole("button", { name: "Revoke Firefox on Windows, 198.51.100.4" }));
    await waitFor(() => expect(screen.getAllByTestId("session-row")).toHaveLength(1));
    expect(server.sessions().map((s) => s.id)).not.toContain("abc");
    expect(await screen.findByText("Session Revoked")).toBeInTheDocument();
  });
});

describe("Account activity", () => {
  it("lists readable actions with time, IP and device, and loads older entries after the last one's time and id", async () => {
    const audit = Array.from({ length: 60 }, (_, i) =>
      makeAuditEntry({
        action: i === 0 ? "password_changed" : i === 1 ? "api_key_created" : "sign_in",
        detail: i === 1 ? "Trading bot" : null,
        at: new Date(Date.UTC(2026, 10, 23, 12, 0) - i * 60_000).toISOString(),
      }),
    );
    const { fetchMock } = securityServer({ audit });
    renderWithProviders(<SecurityTab />);
    const entries = await screen.findAllByTestId("audit-entry");
    expect(entries).toHaveLength(50);
    expect(entries[0]).toHaveTextContent("Password changed");
    expect(entries[0]).toHaveTextContent("203.0.113.7");
    expect(entries[0]).toHaveTextContent("Chrome on macOS");
    expect(entries[1]).toHaveTextContent("API key created");
    expect(entries[1]).toHaveTextContent("Trading bot");

    await userEvent.setup().click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(screen.getAllByTestId("audit-entry")).toHaveLength(60));
    const older = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith("/api/user/audit?"));
    expect(older).toBe(`/api/user/audit?before=${encodeURIComponent(audit[49].at)}&beforeId=${encodeURIComponent(audit[49].id)}`);
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });
});

describe("Delete account", () => {
  it("needs the password; a wrong one is shown under the input", async () => {
    securityServer({
      extra: (url, init) =>
        url === "/api/user" && init.method === "DELETE"
          ? problem(422, "Unprocessable Entity", "The password is not correct.", [
              { field: "password", message: "The password is not correct" },
            ])
          : undefined,
    });
    renderWithProviders(<SecurityTab />, { route: "/settings?tab=security" });
    const events = userEvent.setup();
    await events.click(screen.getByRole("button", { name: "Delete Account" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete your account?" });
    await events.click(within(dialog).getByRole("button", { name: "Delete My Account" }));
    expect(within(dialog).getByText("Enter your password")).toBeInTheDocument();
    await events.type(within(dialog).getByLabelText("Password"), "nope-nope");
    await events.click(within(dialog).getByRole("button", { name: "Delete My Account" }));
    expect(await within(dialog).findByText("The password is not correct")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
  });

  it("deletes with the password, forgets the user and goes home", async () => {
    const { fetchMock } = securityServer();
    const { queryClient } = renderWithProviders(<SecurityTab />, { route: "/settings?tab=security" });
    queryClient.setQueryData(["/api/auth/me"], makeUser());
    const events = userEvent.setup();
    await events.click(screen.getByRole("button", { name: "Delete Account" }));
    const dialog = await screen.findByRole("alertdialog");
    await events.type(within(dialog).getByLabelText("Password"), "correct-horse-42");
    await events.click(within(dialog).getByRole("button", { name: "Delete My Account" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/));
    expect(bodyOfCall(fetchMock, "/api/user", "DELETE")).toEqual({ password: "correct-horse-42" });
    expect(queryClient.getQueryData(["/api/auth/me"])).toBeNull();
    expect(await screen.findByText("Account Deleted")).toBeInTheDocument();
  });
});

describe("Your data", () => {
  it("downloads everything stored as one JSON file and says how much", async () => {
    const created = vi.fn(() => "blob:export");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const exported = {
      exportedAt: "2026-11-27T12:00:00Z",
      userId: "u1",
      email: "ada@example.com",
      tables: { users: [{ id: "u1" }], manual_positions: [{ id: "p1" }, { id: "p2" }], price_alerts: [] },
    };
    const { fetchMock } = securityServer({ extra: (url) => (url === "/api/user/export" ? jsonResponse(exported) : undefined) });
    renderWithProviders(<SecurityTab />, { route: "/settings?tab=security" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByText("Data Downloaded")).toBeInTheDocument();
    expect(screen.getByText("3 records from 3 tables.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === "/api/user/export")).toBe(true);
    expect(created).toHaveBeenCalledTimes(1);
    expect(clicked).toHaveBeenCalledTimes(1);
    clicked.mockRestore();
  });

  it("says why when the limiter refuses", async () => {
    securityServer({
      extra: (url) =>
        url === "/api/user/export" ? problem(429, "Too Many Requests", "Too many requests. Try again in 42 minute(s).") : undefined,
    });
    renderWithProviders(<SecurityTab />, { route: "/settings?tab=security" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByText("Too many requests. Try again in 42 minute(s).")).toBeInTheDocument();
  });
});
