import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicStats, User } from "@/lib/api/models";
import { makeAutomationStatus, signedInApi } from "@/test/fixtures";
import { jsonResponse, makePublicStats, makeUser, mockFetch, publicApi, renderWithProviders } from "@/test/utils";
import { MARKET_DATA_HELP } from "./layouts/market-data-badge";
import { AppRoutes } from "./router";

afterEach(() => vi.unstubAllGlobals());

function signedIn(user: Partial<User> = {}, stats: Partial<PublicStats> = {}) {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(makeUser(user));
    if (url === "/api/public/stats") return jsonResponse(makePublicStats(stats));
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

const called = (fetch: ReturnType<typeof mockFetch>, prefix: string) =>
  fetch.mock.calls.filter(([input]) => String(input).startsWith(prefix));

describe("the simulated-data badge", () => {
  it("is on every signed-in page while the market is simulated, linking to what that means", async () => {
    signedIn({}, { marketData: "simulated" });
    for (const route of ["/dashboard", "/signals", "/portfolio", "/settings"]) {
      const { unmount } = renderWithProviders(<AppRoutes />, { route });
      const badge = await screen.findByRole("link", { name: "Simulated market data" });
      expect(badge).toHaveAttribute("href", MARKET_DATA_HELP);
      unmount();
    }
  });

  it("is gone with Polygon.io as the source", async () => {
    const fetch = signedIn({}, { marketData: "polygon" });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    expect(await screen.findByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
    await waitFor(() => expect(called(fetch, "/api/public/stats").length).toBeGreaterThan(0));
    // Let the answer render before asserting the absence.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("link", { name: "Simulated market data" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("market-data-badge")).not.toBeInTheDocument();
  });

  it("links to a help article that says where the prices come from", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: MARKET_DATA_HELP });
    expect(await screen.findByRole("heading", { level: 1, name: "Where market data comes from" })).toBeInTheDocument();
    expect(await screen.findByText(/No broker shows these prices/)).toBeInTheDocument();
    expect(screen.getByText(/Strikeline's seeded simulated market/)).toBeInTheDocument();
  });
});

describe("dashboard controls the user can use", () => {
  it("a regular user sees the automation status and Manual Update, no Start or Stop", async () => {
    signedIn({ isAdministrator: false });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    expect(await screen.findByTestId("automation-state")).toHaveTextContent("Running");
    expect(screen.getByRole("button", { name: "Manual Update" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Start" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop" })).not.toBeInTheDocument();
  });

  it("an administrator sees Start and Stop", async () => {
    mockFetch((url) => {
      if (url === "/api/auth/me") return jsonResponse(makeUser({ isAdministrator: true }));
      if (url === "/api/automation/status") return jsonResponse(makeAutomationStatus({ isRunning: true }));
      return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
    });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await waitFor(() => expect(screen.getByRole("button", { name: "Stop" })).toBeEnabled());
    expect(screen.getByRole("button", { name: "Start" })).toBeDisabled();
  });

  it("a Free dashboard never requests AI recommendations and offers what Pro adds", async () => {
    const fetch = signedIn({ subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    expect(await screen.findByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
    expect((await screen.findAllByText("Upgrade to Pro for AI-powered insights")).length).toBeGreaterThan(0);
    const offer = await screen.findByTestId("assistant-offer");
    expect(within(offer).getByText("Trade recommendations")).toBeInTheDocument();
    await waitFor(() => expect(called(fetch, "/api/automation/status").length).toBeGreaterThan(0));
    expect(called(fetch, "/api/ai/recommendations")).toHaveLength(0);
  });

  it("a Pro dashboard requests them", async () => {
    const fetch = signedIn({ subscriptionPlan: "pro", subscriptionStatus: "active" });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    expect(await screen.findByText("No AI recommendations available")).toBeInTheDocument();
    expect(called(fetch, "/api/ai/recommendations")).toHaveLength(1);
    expect(screen.queryByTestId("assistant-offer")).not.toBeInTheDocument();
  });
});
