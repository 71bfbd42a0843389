import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedInApi } from "@/test/fixtures";
import { jsonResponse, makeUser, mockFetch, problem, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

afterEach(() => vi.unstubAllGlobals());

function signedOut() {
  return mockFetch((url) => (url === "/api/auth/me" ? problem(401, "Unauthorized") : (publicApi(url) ?? jsonResponse({}))));
}

function signedIn(overrides = {}) {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(makeUser(overrides));
    if (url === "/api/auth/logout") return new Response(null, { status: 204 });
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

describe("route tables", () => {
  it("shows a spinner while the session loads", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<AppRoutes />, { route: "/" });
    expect(screen.getByTestId("auth-loading")).toBeInTheDocument();
  });

  it("signed out: an unknown path shows the landing page", async () => {
    signedOut();
    renderWithProviders(<AppRoutes />, { route: "/portfolio" });
    expect(await screen.findByRole("heading", { level: 1, name: /options signals with the reasoning attached/i })).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Sign In" })[0]).toHaveAttribute("href", "/login");
    expect(screen.getAllByRole("link", { name: "Get Started" })[0]).toHaveAttribute("href", "/register");
  });

  it("signed out: /login and /register show the forms", async () => {
    signedOut();
    renderWithProviders(<AppRoutes />, { route: "/login" });
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/register");
  });

  it("signed out: public pages render in the public layout", async () => {
    signedOut();
    renderWithProviders(<AppRoutes />, { route: "/pricing" });
    expect(await screen.findByRole("heading", { level: 1, name: "Plans and Pricing" })).toBeInTheDocument();
    expect(await screen.findByText("Most Popular")).toBeInTheDocument();
  });

  it("signed in: an unknown path shows 404", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/no-such-page" });
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /back to dashboard/i })).toHaveAttribute("href", "/");
  });

  it("signed in: / shows the dashboard greeting the user by first name", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/" });
    expect(await screen.findByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
    expect(screen.getByText("Real-time signals and market analysis")).toBeInTheDocument();
    expect(await screen.findByText("No signals found")).toBeInTheDocument();
    expect(screen.getByText("No signals found matching your criteria")).toBeInTheDocument();
    expect(await screen.findByText("No AI recommendations available")).toBeInTheDocument();
    for (const title of ["Active Signals", "Win Rate", "Avg Strength", "Portfolio Value"]) {
      expect(screen.getByText(title)).toBeInTheDocument();
    }
    expect(screen.getAllByText("Pro trial, 14 days left").length).toBeGreaterThan(0);
  });

  it("signed in: greets by username when there is no first name", async () => {
    signedIn({ firstName: null });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    expect(await screen.findByRole("heading", { name: "Welcome back, ada" })).toBeInTheDocument();
  });

  it("signed in: product pages show their titles", async () => {
    signedIn();
    const pages: [string, string][] = [
      ["/signals", "Trading Signals"],
      ["/backtest", "Strategy Backtesting"],
      ["/portfolio", "Portfolio Analysis"],
      ["/news", "Market News & AI Analysis"],
    ];
    for (const [route, title] of pages) {
      const { unmount } = renderWithProviders(<AppRoutes />, { route });
      expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
      unmount();
    }
  });

  it("signed in: /login redirects to the dashboard", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/login" });
    expect(await screen.findByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/dashboard");
  });

  it("signed in: /register?next= goes on to that page of the site (a paid plan chosen before signing up)", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: `/register?next=${encodeURIComponent("/pricing?billing=yearly")}` });
    expect(await screen.findByRole("heading", { level: 1, name: "Plans and Pricing" })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/pricing");
  });

  it("logging out toasts, clears the session and shows the landing page", async () => {
    const fetchMock = signedIn();
    const { queryClient } = renderWithProviders(<AppRoutes />, { route: "/portfolio" });
    await screen.findByRole("heading", { level: 1, name: "Portfolio Analysis" });
    queryClient.setQueryData(["/api/stats"], { activeSignals: 3 });

    await userEvent.setup().click(screen.getByRole("button", { name: "Log out" }));

    expect(await screen.findByText("Logged out successfully")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: /options signals/i })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/logout", expect.objectContaining({ method: "POST" }));
    expect(queryClient.getQueryData(["/api/auth/me"])).toBeNull();
    expect(queryClient.getQueryData(["/api/stats"])).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/));
  });

  it("a failed logout keeps the session and says so", async () => {
    mockFetch((url) => (url === "/api/auth/me" ? jsonResponse(makeUser()) : (signedInApi(url) ?? problem(500, "Internal Server Error"))));
    renderWithProviders(<AppRoutes />, { route: "/" });
    await screen.findByRole("heading", { name: "Welcome back, Ada" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Log out" }));
    expect(await screen.findByText("Logout failed")).toBeInTheDocument();
    expect(screen.getByText("There was an error logging out. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Welcome back, Ada" })).toBeInTheDocument();
  });
});
