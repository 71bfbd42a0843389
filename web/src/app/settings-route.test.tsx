import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserSettings } from "@/lib/api/models";
import { getMoneyDisplay, setMoneyDisplay } from "@/lib/money-display";
import { getTheme, resetThemeForTests, setTheme } from "@/lib/theme";
import { makeStats, signedInApi } from "@/test/fixtures";
import { makeReportBrand } from "@/test/report-fixtures";
import { makeExchangeRates, makeUserSettings } from "@/test/settings-fixtures";
import { jsonResponse, makeUser, mockFetch, problem, publicApi, renderWithProviders } from "@/test/utils";
import { PAYMENT_SUCCESS_TOAST } from "@/features/billing/hooks/use-payment-return";
import { AppRoutes } from "./router";

function SearchProbe() {
  return <div data-testid="search">{useLocation().search}</div>;
}

beforeEach(() => resetThemeForTests());
afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

const SETTINGS = "/api/user/preferences";

/** A signed-in user whose settings the server keeps; `rates` answers GET /api/exchange-rates. */
function signedIn({
  settings = makeUserSettings(),
  rates = () => jsonResponse(makeExchangeRates()),
  logout = () => new Response(null, { status: 204 }),
} = {}) {
  let stored: UserSettings = settings;
  const puts: Partial<UserSettings>[] = [];
  const fetchMock = mockFetch((url, init) => {
    if (url === "/api/auth/me") return jsonResponse(makeUser());
    if (url === "/api/auth/logout") return logout();
    if (url === SETTINGS && init.method === "PUT") {
      const body = JSON.parse(String(init.body)) as Partial<UserSettings>;
      puts.push(body);
      stored = { ...stored, ...body };
      return jsonResponse(stored);
    }
    if (url === SETTINGS) return jsonResponse(stored);
    if (url === "/api/exchange-rates") return rates();
    if (url === "/api/stats") return jsonResponse(makeStats({ portfolioValue: 1000 }));
    if (url === "/api/api-keys") return jsonResponse([]);
    if (url === "/api/webhooks") return jsonResponse([]);
    // A Pro account: reports in its own brand are Premium's.
    if (url === "/api/reports/brand") return jsonResponse(makeReportBrand({ available: false }));
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
  return { fetchMock, puts, stored: () => stored };
}

/** The figure on the dashboard's Portfolio Value card. */
async function portfolioValue(text: string) {
  const card = (await screen.findByRole("heading", { name: "Portfolio Value" })).closest<HTMLElement>("[data-testid=stat-card]");
  if (!card) throw new Error("no Portfolio Value card");
  return waitFor(() => expect(card).toHaveTextContent(text));
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === path);

describe("money in the user's currency", () => {
  it("shows the dashboard in euros at the server's rate", async () => {
    signedIn({ settings: makeUserSettings({ currency: "EUR" }) });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await portfolioValue("€900.00");
    expect(getMoneyDisplay()).toEqual({ currency: "EUR", perUsd: 0.9 });
  });

  it("re-renders pages already open when the currency changes, without asking for rates in dollars", async () => {
    const { fetchMock } = signedIn();
    const { queryClient } = renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await portfolioValue("$1,000.00");
    await waitFor(() => expect(queryClient.getQueryData([SETTINGS])).toBeDefined());
    expect(calls(fetchMock, "/api/exchange-rates")).toHaveLength(0);
    queryClient.setQueryData<UserSettings>([SETTINGS], (s) => (s ? { ...s, currency: "GBP" } : s));
    await portfolioValue("£800.00");
    // The investment profile card (capital $1,000) follows too: every amount on the page.
    expect(screen.getAllByText("£800.00").length).toBeGreaterThan(1);
    expect(screen.getByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
  });

  it("stays in dollars when the rates cannot be read", async () => {
    const { fetchMock } = signedIn({ settings: makeUserSettings({ currency: "EUR" }), rates: () => problem(503, "Service Unavailable") });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await waitFor(() => expect(calls(fetchMock, "/api/exchange-rates")).toHaveLength(1));
    await portfolioValue("$1,000.00");
    expect(getMoneyDisplay().currency).toBe("USD");
  });
});

describe("theme", () => {
  it("the saved theme wins on load; later changes are saved", async () => {
    setTheme("light");
    const { puts } = signedIn({ settings: makeUserSettings({ theme: "dark" }) });
    renderWithProviders(<AppRoutes />, { route: "/settings" });
    await waitFor(() => expect(getTheme()).toBe("dark"));
    expect(document.documentElement).toHaveClass("dark");
    expect(puts).toEqual([]);

    const events = userEvent.setup();
    const group = await screen.findByRole("radiogroup", { name: "Theme" });
    expect(within(group).getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
    await events.click(within(group).getByRole("radio", { name: "Light" }));
    await waitFor(() => expect(puts).toEqual([{ theme: "light" }]));
    expect(getTheme()).toBe("light");
    expect(window.localStorage.getItem("theme")).toBe("light");
  });
});

describe("theme chosen before the settings arrive", () => {
  it("is saved instead of being overwritten by the stored one", async () => {
    const held: { release?: () => void } = {};
    const puts: unknown[] = [];
    mockFetch((url, init) => {
      if (url === "/api/auth/me") return jsonResponse(makeUser());
      if (url === SETTINGS && init.method === "PUT") {
        puts.push(JSON.parse(String(init.body)));
        return jsonResponse(makeUserSettings({ theme: "dark" }));
      }
      if (url === SETTINGS)
        return new Promise<Response>((resolve) => (held.release = () => resolve(jsonResponse(makeUserSettings({ theme: "light" })))));
      return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
    });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await screen.findByRole("heading", { name: "Welcome back, Ada" });
    await waitFor(() => expect(held.release).toBeDefined());
    setTheme("dark");
    held.release?.();
    await waitFor(() => expect(puts).toEqual([{ theme: "dark" }]));
    expect(getTheme()).toBe("dark");
  });
});

describe("/settings", () => {
  it("shows the tabs, General first, and keeps the open tab in the URL", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/settings" });
    const list = await screen.findByRole("tablist", { name: "Settings sections" });
    expect(
      within(list)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual(["General", "Trading", "Trading accounts", "Notifications", "Reports", "API Keys", "Subscription", "Security"]);
    expect(screen.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Email")).toBeDisabled();
    expect(screen.getByText("Email cannot be changed. Contact support if needed.")).toBeInTheDocument();
    expect(document.title).toBe("Settings · Strikeline");

    await userEvent.setup().click(screen.getByRole("tab", { name: "API Keys" }));
    expect(await screen.findByText("No API keys yet")).toBeInTheDocument();
    // The webhooks card (another feature, composed by the route) is below the keys.
    expect(await screen.findByRole("region", { name: "Webhooks" })).toHaveTextContent("No endpoints yet");
    expect(screen.getByTestId("location")).toHaveTextContent("/settings");
  });

  it("opens the tab a link names (?tab=)", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/settings?tab=subscription" });
    expect(await screen.findByRole("tab", { name: "Subscription" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByTestId("subscription-plan")).toHaveTextContent("Pro");
    expect(screen.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/pricing");
  });

  it("opens Reports (?tab=reports): the brand card, locked below Premium", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/settings?tab=reports" });
    expect(await screen.findByRole("tab", { name: "Reports" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByTestId("report-brand-locked")).toHaveTextContent("Reports in your own brand are part of Premium");
  });

  it("back from paying (?success=true): toasts once, shows the subscription, and drops the parameter", async () => {
    signedIn();
    renderWithProviders(
      <>
        <AppRoutes />
        <SearchProbe />
      </>,
      { route: "/settings?success=true" },
    );
    expect(await screen.findByText(PAYMENT_SUCCESS_TOAST.title)).toBeInTheDocument();
    expect(screen.getByText(PAYMENT_SUCCESS_TOAST.description)).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Subscription" })).toHaveAttribute("aria-selected", "true");
    await waitFor(() => expect(screen.getByTestId("search")).toHaveTextContent(/^\?tab=subscription$/));
    expect(await screen.findByTestId("subscription-plan")).toHaveTextContent("Pro");
  });

  it("back from Stripe unpaid (redirect_status=failed): says so, and drops Stripe's parameters", async () => {
    signedIn();
    renderWithProviders(
      <>
        <AppRoutes />
        <SearchProbe />
      </>,
      {
        route:
          "/settings?tab=subscription&success=true&payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_2&redirect_status=failed",
      },
    );
    expect(await screen.findByText("Payment Failed")).toBeInTheDocument();
    expect(screen.queryByText(PAYMENT_SUCCESS_TOAST.title)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("search")).toHaveTextContent(/^\?tab=subscription$/));
  });

  it("switches the currency and says at what rate", async () => {
    const { puts } = signedIn();
    renderWithProviders(<AppRoutes />, { route: "/settings" });
    const select = await screen.findByLabelText("Display currency");
    expect(select).toHaveDisplayValue("US Dollar ($)");
    await userEvent.setup().selectOptions(select, "EUR");
    await waitFor(() => expect(puts).toEqual([{ currency: "EUR" }]));
    expect(await screen.findByText(/Converted from US dollars at 1 USD = 0\.9000 EUR/)).toBeInTheDocument();
    await waitFor(() => expect(getMoneyDisplay()).toEqual({ currency: "EUR", perUsd: 0.9 }));
  });

  it("logs out to the home page, and toasts when the server could not", async () => {
    let fail = true;
    signedIn({ logout: () => (fail ? problem(500, "Internal Server Error") : new Response(null, { status: 204 })) });
    renderWithProviders(<AppRoutes />, { route: "/settings" });
    const main = await screen.findByRole("tablist", { name: "Settings sections" });
    const button = within(main.parentElement as HTMLElement).getByRole("button", { name: "Log out" });
    const events = userEvent.setup();
    await events.click(button);
    expect(await screen.findByText("Failed to log out. Please try again.")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/settings");

    fail = false;
    await events.click(button);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/));
    expect(await screen.findByRole("heading", { level: 1, name: /options signals with the reasoning attached/i })).toBeInTheDocument();
  });
});
