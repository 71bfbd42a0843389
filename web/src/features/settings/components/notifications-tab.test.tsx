import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UserSettings } from "@/lib/api/models";
import { makeUserSettings } from "@/test/settings-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { NotificationsTab } from "./notifications-tab";
import { TradingTab } from "./trading-tab";

afterEach(() => vi.unstubAllGlobals());

const URL = "/api/user/preferences";

/** A server that keeps the settings and applies each PUT; `fail` makes a PUT answer 500. */
function settingsServer(initial: UserSettings = makeUserSettings(), options: { fail?: boolean; hold?: boolean } = {}) {
  let stored = initial;
  const puts: unknown[] = [];
  let release: () => void = () => {};
  const fetchMock = mockFetch((url, init) => {
    if (url === URL && (init.method ?? "GET") === "GET") return jsonResponse(stored);
    if (url === URL && init.method === "PUT") {
      const body = JSON.parse(String(init.body)) as Partial<UserSettings>;
      puts.push(body);
      const answer = () => {
        if (options.fail) return problem(500, "Internal Server Error");
        stored = { ...stored, ...body };
        return jsonResponse(stored);
      };
      return options.hold ? new Promise<Response>((resolve) => (release = () => resolve(answer()))) : answer();
    }
    return jsonResponse({});
  });
  return { fetchMock, puts, stored: () => stored, release: () => release() };
}

describe("NotificationsTab", () => {
  it("shows the three switches as stored and saves each change on its own", async () => {
    const server = settingsServer(makeUserSettings({ portfolioSummary: false }));
    renderWithProviders(<NotificationsTab />);
    const email = await screen.findByRole("switch", { name: "Email Notifications" });
    expect(email).toBeChecked();
    expect(screen.getByRole("switch", { name: "Signal Alerts" })).toBeChecked();
    const summary = screen.getByRole("switch", { name: "Portfolio Summary" });
    expect(summary).not.toBeChecked();
    expect(summary).toHaveAccessibleDescription("A daily summary of your portfolio's value and P&L.");

    const events = userEvent.setup();
    await events.click(screen.getByRole("switch", { name: "Signal Alerts" }));
    await events.click(summary);
    await waitFor(() => expect(server.puts).toEqual([{ signalAlerts: false }, { portfolioSummary: true }]));
    expect(server.stored()).toMatchObject({ signalAlerts: false, portfolioSummary: true });
    expect(screen.getByRole("switch", { name: "Signal Alerts" })).not.toBeChecked();
    expect(screen.getByRole("switch", { name: "Portfolio Summary" })).toBeChecked();
  });

  it("flips at once, before the server answers", async () => {
    const server = settingsServer(makeUserSettings(), { hold: true });
    renderWithProviders(<NotificationsTab />);
    const email = await screen.findByRole("switch", { name: "Email Notifications" });
    await userEvent.setup().click(email);
    expect(email).not.toBeChecked();
    server.release();
    await waitFor(() => expect(server.stored().emailNotifications).toBe(false));
    expect(email).not.toBeChecked();
  });

  it("puts a change back and toasts when it could not be saved", async () => {
    settingsServer(makeUserSettings(), { fail: true });
    renderWithProviders(<NotificationsTab />);
    const alerts = await screen.findByRole("switch", { name: "Signal Alerts" });
    await userEvent.setup().click(alerts);
    expect(await screen.findByText("Failed to update settings. Please try again.")).toBeInTheDocument();
    expect(alerts).toBeChecked();
  });

  it("says 'Failed to fetch preferences' when the settings cannot be read, and tries again", async () => {
    let fail = true;
    mockFetch((url) =>
      url === URL ? (fail ? problem(500, "Internal Server Error") : jsonResponse(makeUserSettings())) : jsonResponse({}),
    );
    renderWithProviders(<NotificationsTab />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to fetch preferences");
    expect(screen.queryByRole("switch")).not.toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("switch", { name: "Email Notifications" })).toBeChecked();
  });
});

describe("TradingTab", () => {
  it("saves the trading switches and the risk tolerance, shown as Conservative, Moderate, Aggressive", async () => {
    const server = settingsServer();
    renderWithProviders(<TradingTab signalRefreshSeconds={300} />);
    const auto = await screen.findByRole("switch", { name: "Auto-update Signals" });
    expect(auto).toBeChecked();
    expect(auto).toHaveAccessibleDescription(
      "Refresh signals every 5 minutes, as the server issues them; off, only when you press Refresh.",
    );
    const highRisk = screen.getByRole("switch", { name: "High-Risk Signal Alerts" });
    expect(highRisk).not.toBeChecked();
    const risk = screen.getByLabelText("Risk tolerance");
    expect(risk).toHaveDisplayValue("Moderate");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Conservative", "Moderate", "Aggressive"]);

    const events = userEvent.setup();
    await events.click(auto);
    await events.click(highRisk);
    await events.selectOptions(risk, "Aggressive");
    await waitFor(() => expect(server.puts).toEqual([{ autoUpdateSignals: false }, { highRiskAlerts: true }, { riskTolerance: "high" }]));
    expect(risk).toHaveDisplayValue("Aggressive");
    expect(screen.getByText("More setups, including weaker and higher-risk ones.")).toBeInTheDocument();
  });
});
