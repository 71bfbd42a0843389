import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type * as React from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { vi } from "vitest";
import { AppProvider } from "@/app/provider";
import type { PlanCatalogue, PublicStats, User } from "@/lib/api/models";
import { createQueryClient } from "@/lib/query-client";

/** The server's plan catalogue as GET /api/plans answers it. */
export function makePlanCatalogue(): PlanCatalogue {
  return {
    yearlyDiscountPercent: 20,
    trialDays: 14,
    plans: [
      {
        id: "free",
        tradingAccounts: 1,
        name: "Free",
        description: "Follow the market with a few signals a day.",
        monthlyPrice: 0,
        yearlyPrice: 0,
        signalsPerDay: 5,
        apiRequestsPerHour: 100,
        features: ["5 signals per day", "Basic portfolio tracking"],
        aiFeatures: [],
        support: "Community support",
        supportResponse: "48 hours",
        mostPopular: false,
        capabilities: ["apiKeys"],
      },
      {
        id: "pro",
        tradingAccounts: 1,
        name: "Pro",
        description: "For active traders who want every tool.",
        monthlyPrice: 49,
        yearlyPrice: 470,
        signalsPerDay: 50,
        apiRequestsPerHour: 1000,
        features: ["50 signals per day", "On-demand signal generation"],
        aiFeatures: ["Trade recommendations", "AI analysis of the news"],
        support: "Priority email support",
        supportResponse: "12 hours",
        mostPopular: true,
        capabilities: [
          "generateSignals",
          "backtestByStrategy",
          "backtestFullHistory",
          "aiRecommendations",
          "apiWrite",
          "apiStandardEndpoints",
          "webhooks",
          "newsAnalysis",
          "apiKeys",
        ],
      },
      {
        id: "premium",
        tradingAccounts: 10,
        name: "Premium",
        description: "For professionals who build on Strikeline.",
        monthlyPrice: 149,
        yearlyPrice: 1430,
        signalsPerDay: null,
        apiRequestsPerHour: 5000,
        features: ["Unlimited signals", "Full API access, AI recommendations included"],
        aiFeatures: ["Predictive analysis: each signal's modelled chance to win, and why"],
        support: "Priority email support",
        supportResponse: "24/7",
        mostPopular: false,
        capabilities: [
          "generateSignals",
          "backtestByStrategy",
          "backtestFullHistory",
          "customStrategyParams",
          "aiRecommendations",
          "apiWrite",
          "apiStandardEndpoints",
          "webhooks",
          "newsAnalysis",
          "apiAiRecommendations",
          "predictiveAnalysis",
          "apiKeys",
          "strategyBuilder",
        ],
      },
    ],
  };
}

/** Live figures as GET /api/public/stats answers them before any signal exists. */
export function makePublicStats(overrides: Partial<PublicStats> = {}): PublicStats {
  return {
    generatedAt: "2026-11-23T14:30:00Z",
    registeredUsers: 3,
    signalsIssued: { count: 0, periodDays: 30 },
    volumeAnalysed: { notional: 0, signals: 0, periodDays: 30 },
    winRate: { value: null, closedSignals: 0, periodDays: 90, minimumSample: 30 },
    symbolsCovered: 0,
    signalRefreshSeconds: 300,
    priceRefreshSeconds: 60,
    marketData: "simulated",
    ...overrides,
  };
}

/** Answers for the public endpoints every public page may read; undefined for any other URL. */
export function publicApi(url: string): Response | undefined {
  if (url === "/api/plans") return jsonResponse(makePlanCatalogue());
  if (url === "/api/public/stats") return jsonResponse(makePublicStats());
  return undefined;
}

/** What each plan includes, as the server lists it (`capabilities`). */
export const CAPABILITIES = {
  free: ["apiKeys"],
  pro: [
    "generateSignals",
    "backtestByStrategy",
    "backtestFullHistory",
    "aiRecommendations",
    "apiWrite",
    "apiStandardEndpoints",
    "webhooks",
    "newsAnalysis",
    "apiKeys",
  ],
  premium: [
    "generateSignals",
    "backtestByStrategy",
    "backtestFullHistory",
    "customStrategyParams",
    "aiRecommendations",
    "apiWrite",
    "apiStandardEndpoints",
    "webhooks",
    "newsAnalysis",
    "apiAiRecommendations",
    "predictiveAnalysis",
    "apiKeys",
    "strategyBuilder",
    "portfolioOptimisation",
    "customStrategies",
  ],
} satisfies Record<string, User["capabilities"]>;

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: "7d0f3f5e-4f7c-4b44-9d1e-2b1c2f2a9a10",
    email: "ada@example.com",
    emailVerified: true,
    isAdministrator: false,
    capabilities: CAPABILITIES[overrides.subscriptionPlan ?? "pro"],
    username: "ada",
    firstName: "Ada",
    lastName: "Lovelace",
    profileImageUrl: null,
    subscriptionPlan: "pro",
    subscriptionStatus: "trialing",
    subscriptionExpiresAt: new Date(Date.now() + 14 * 24 * 3600 * 1000 - 60_000).toISOString(),
    investmentCapital: 1000,
    riskTolerance: "medium",
    maxPositionSize: 100,
    preferredStrategies: "Momentum,Breakout",
    emailNotifications: true,
    signalAlerts: true,
    portfolioUpdates: true,
    createdAt: "2025-01-28T12:00:00Z",
    updatedAt: "2025-01-28T12:00:00Z",
    ...overrides,
  };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": status >= 400 ? "application/problem+json" : "application/json", ...headers },
  });
}

export function problem(status: number, title: string, detail?: string, errors?: { field: string; message: string }[]) {
  return jsonResponse({ type: "about:blank", title, status, ...(detail ? { detail } : {}), ...(errors ? { errors } : {}) }, status);
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces global fetch with `handler`; returns the mock to inspect calls. */
export function mockFetch(handler: Handler) {
  const mock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => Promise.resolve(handler(String(input), init)));
  vi.stubGlobal("fetch", mock);
  return mock;
}

/** The body of the first call to `url`, parsed as JSON. */
export function bodyOf(mock: ReturnType<typeof mockFetch>, url: string): unknown {
  const call = mock.mock.calls.find(([input]) => String(input) === url);
  if (!call) throw new Error(`no call to ${url}`);
  return JSON.parse(String(call[1]?.body));
}

function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-search={location.search}>
      {location.pathname}
    </div>
  );
}

/** Renders inside the app's providers and a memory router at `route`. */
export function renderWithProviders(
  ui: React.ReactNode,
  { route = "/", queryClient = createTestQueryClient() }: { route?: string; queryClient?: QueryClient } = {},
) {
  const result = render(
    <MemoryRouter initialEntries={[route]}>
      <AppProvider queryClient={queryClient}>
        {ui}
        <Routes>
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </AppProvider>
    </MemoryRouter>,
  );
  return { ...result, queryClient };
}

export function createTestQueryClient(): QueryClient {
  return createQueryClient();
}
