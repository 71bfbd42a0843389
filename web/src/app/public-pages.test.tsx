import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { User } from "@/lib/api/models";
import { makeCheckout, makePaidSubscription } from "@/test/billing-fixtures";
import { signedInApi } from "@/test/fixtures";
import { trackRecordApi } from "@/test/track-record-fixtures";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Strikeline API", version: "0.1.0" },
  tags: [{ name: "public", description: "Public" }],
  paths: {
    "/api/plans": {
      get: {
        tags: ["public"],
        summary: "The plans for sale.",
        responses: {
          "200": {
            description: "",
            content: { "application/json": { schema: { type: "object", properties: { trialDays: { type: "integer" } } } } },
          },
        },
      },
    },
    "/api/contact": {
      post: {
        tags: ["public"],
        summary: "Send a message to the team.",
        requestBody: {
          content: { "application/json": { schema: { type: "object", required: ["email"], properties: { email: { type: "string" } } } } },
        },
        responses: { "201": { description: "Stored" }, "422": { description: "Invalid fields" } },
      },
    },
  },
};

function visitor() {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return problem(401, "Unauthorized");
    if (url === "/api/openapi.json") return jsonResponse(OPENAPI);
    return publicApi(url) ?? trackRecordApi(url) ?? jsonResponse({});
  });
}

function member(overrides: Partial<User> = {}, answer: (url: string) => Response | undefined = () => undefined) {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(makeUser(overrides));
    return answer(url) ?? signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

beforeEach(() => {
  document.title = "Strikeline";
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("landing page", () => {
  it("shows live figures honestly and the three plans from the catalogue", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/" });
    expect(await screen.findByText("Not enough closed signals yet")).toBeInTheDocument();
    expect(screen.getByText("No signals issued yet")).toBeInTheDocument();
    expect(screen.getByText("Every 5 minutes")).toBeInTheDocument();
    expect(await screen.findByTestId("plan-pro")).toHaveTextContent("Most Popular");
    for (const id of ["free", "pro", "premium"]) {
      expect(within(screen.getByTestId(`plan-${id}`)).getByRole("link")).toHaveAttribute("href", "/register");
    }
    expect(screen.getByText("Example signal")).toBeInTheDocument();
    expect(document.title).toBe("Options signals with the reasoning attached · Strikeline");
    expect(document.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/Live figures/);
    expect(await screen.findByRole("heading", { name: "Send us a message" })).toBeInTheDocument();
    for (const href of [
      "/pricing",
      "/track-record",
      "/api",
      "/documentation",
      "/about",
      "/blog",
      "/careers",
      "/help",
      "/community",
      "/privacy",
      "/terms",
    ]) {
      expect(
        screen.getAllByRole("link").some((a) => a.getAttribute("href") === href),
        href,
      ).toBe(true);
    }
  });
});

describe("pricing", () => {
  it("toggles yearly prices with 'Save 20%' and sends visitors to /register", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/pricing" });
    const pro = await screen.findByTestId("plan-pro");
    expect(pro).toHaveTextContent("$49/month");
    await userEvent.setup().click(screen.getByRole("button", { name: /Yearly/ }));
    expect(screen.getByText("Save 20%")).toBeInTheDocument();
    expect(pro).toHaveTextContent("$470/year");
    expect(pro).toHaveTextContent("Billed yearly, $118 less than monthly");
    // A paid plan: sign up, then straight on to pay for it.
    expect(within(pro).getByRole("link", { name: "Start with Pro" })).toHaveAttribute(
      "href",
      `/register?next=${encodeURIComponent("/subscribe?plan=pro&billing=yearly")}`,
    );
    expect(screen.getByRole("heading", { name: "What the AI does on each plan" })).toBeInTheDocument();
    expect(screen.getByText("Response within 48 hours")).toBeInTheDocument();
    expect(screen.getByText("Available 24/7")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "How does the free trial work?" })).toBeInTheDocument();
  });

  it("signed in: Free answers 'Already on Free Plan'; a paid plan starts the subscription, names the provider and opens /subscribe", async () => {
    const fetchMock = member({ subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null }, (url) =>
      url === "/api/create-subscription" ? jsonResponse(makeCheckout()) : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/pricing?billing=yearly" });
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId("plan-free")).getByRole("button", { name: "Current Plan" }));
    expect(await screen.findByText("Already on Free Plan")).toBeInTheDocument();
    expect(screen.getByText("Your account is on the Free plan. Choose Pro or Premium to upgrade.")).toBeInTheDocument();

    await user.click(within(screen.getByTestId("plan-premium")).getByRole("button", { name: "Choose Premium" }));
    expect(await screen.findByText("Redirecting to Strikeline test payments")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/create-subscription")).toEqual({ plan: "premium", billing: "yearly" });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/subscribe"));
    expect(await screen.findByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeInTheDocument();
  });

  it("toasts 'Failed to start subscription. Please try again.' with the server's reason, and stays", async () => {
    member({ subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null }, (url) =>
      url === "/api/create-subscription"
        ? problem(429, "Too Many Requests", "Too many payment attempts. Try again in 20 minutes.")
        : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/pricing" });
    await userEvent.setup().click(within(await screen.findByTestId("plan-pro")).getByRole("button", { name: "Choose Pro" }));
    expect(await screen.findByText("Failed to start subscription. Please try again.")).toBeInTheDocument();
    expect(screen.getByText("Too many payment attempts. Try again in 20 minutes.")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/pricing");
  });

  it("an account that pays: its plan says so, another plan or period is changed in Settings", async () => {
    member({ subscriptionPlan: "premium", subscriptionStatus: "active" }, (url) =>
      url === "/api/billing/subscription" ? jsonResponse(makePaidSubscription()) : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/pricing?billing=yearly" });
    const premium = await screen.findByTestId("plan-premium");
    expect(await within(premium).findByRole("button", { name: "Current Plan" })).toBeDisabled();
    expect(within(screen.getByTestId("plan-pro")).getByRole("link", { name: "Change to Pro" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription&change=pro-yearly",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Monthly" }));
    expect(within(premium).getByRole("link", { name: "Switch to monthly" })).toHaveAttribute(
      "href",
      "/settings?tab=subscription&change=premium-monthly",
    );
    expect(within(screen.getByTestId("plan-free")).getByRole("button", { name: "Free Plan" })).toBeInTheDocument();
  });
});

describe("content pages", () => {
  it("the blog filters by search and category chip", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/blog" });
    expect(await screen.findByRole("heading", { name: "Latest articles" })).toBeInTheDocument();
    expect(screen.getByText("Featured")).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Risk Management" }));
    expect(screen.getByRole("button", { name: "Risk Management" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByText("1 article in Risk Management")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "All" }));
    await user.type(screen.getByLabelText("Search articles"), "gamma");
    expect(await screen.findByRole("link", { name: /The Options Greeks, Explained/ })).toHaveAttribute(
      "href",
      "/blog/options-greeks-guide",
    );
    await user.clear(screen.getByLabelText("Search articles"));
    await user.type(screen.getByLabelText("Search articles"), "zzzz");
    expect(await screen.findByText("No articles found")).toBeInTheDocument();
  });

  it("an article loads its Markdown and sets its title", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/blog/options-greeks-guide" });
    expect(await screen.findByRole("heading", { level: 2, name: "Gamma: how fast delta changes" })).toBeInTheDocument();
    expect(document.title).toBe("The Options Greeks, Explained with One Worked Example · Strikeline");
  });

  it("careers chips filter the openings", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/careers" });
    await screen.findByRole("heading", { name: "Open positions" });
    expect(screen.getAllByRole("link", { name: /^Apply:/ })).toHaveLength(6);
    await userEvent.setup().click(screen.getByRole("button", { name: /^Engineering/ }));
    const links = screen.getAllByRole("link", { name: /^Apply:/ });
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["/careers/senior-frontend-engineer", "/careers/devops-engineer"]);
  });

  it("help search shows a Search button once text is typed, and popular topics search", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/help" });
    await screen.findByRole("heading", { name: "Browse by category" });
    expect(screen.queryByRole("button", { name: "Search" })).toBeNull();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Search help articles"), "refund");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(await screen.findByRole("link", { name: /Cancelling and refunds/ })).toHaveAttribute(
      "href",
      "/help/account-billing/cancel-and-refunds",
    );
    expect(
      screen.getAllByRole("button", {
        name: /^(Reading trading signals|Risk management|Setting up your first portfolio|Using the AI assistant|Options Greeks|Managing notifications)$/,
      }),
    ).toHaveLength(4);
    await user.click(screen.getByRole("button", { name: "Using the AI assistant" }));
    expect(await screen.findByText(/for “Using the AI assistant”/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Using the AI assistant/ })).toHaveAttribute("href", "/help/platform-features/ai-assistant");
    expect(screen.getByText("How often do signals update?")).toBeInTheDocument();
  });

  it("the help FAQ on strength links to the track record", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/help" });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "What does a signal's strength score mean?" }));
    expect(await screen.findByRole("link", { name: "track record page" })).toHaveAttribute("href", "/track-record");
  });

  it("documentation search and guides", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/documentation" });
    expect(await screen.findByRole("link", { name: /Portfolio setup/ })).toHaveAttribute("href", "/docs/portfolio-setup");
    expect(screen.getByText("15 min")).toBeInTheDocument();
    await userEvent.setup().type(screen.getByLabelText("Search the documentation"), "problem details");
    expect(await screen.findByRole("link", { name: /API errors/ })).toHaveAttribute("href", "/docs/errors");
  });

  it("legal pages end with the company's contact details", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/terms" });
    expect(await screen.findByRole("heading", { level: 2, name: "14. Contact us" })).toBeInTheDocument();
    expect(screen.getByText("Last updated January 28, 2025")).toBeInTheDocument();
    expect(screen.getByTestId("company-contact")).toHaveTextContent("legal@strikeline.com");
  });

  it("the community page labels sample content and shows no invented figures", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/community" });
    expect(await screen.findByRole("tab", { name: "Sample Discussions" })).toBeInTheDocument();
    expect(screen.getAllByText("Sample").length).toBeGreaterThan(0);
    expect(document.body.textContent).not.toMatch(/12,500|3,200|850\+/);
    expect(screen.getAllByRole("link", { name: /guidelines/i })[0]).toHaveAttribute("href", "/community/guidelines");
  });

  it("unknown slugs show the not-found screen, signed in or out", async () => {
    for (const route of ["/blog/nope", "/careers/nope", "/help/nope", "/help/getting-started/nope", "/docs/nope"]) {
      vi.unstubAllGlobals();
      visitor();
      const { unmount } = renderWithProviders(<AppRoutes />, { route });
      expect(await screen.findByRole("heading", { name: "404 Page Not Found" }), route).toBeInTheDocument();
      expect(screen.getByRole("link", { name: /Back to Home/ })).toHaveAttribute("href", "/");
      unmount();
    }
    vi.unstubAllGlobals();
    member();
    renderWithProviders(<AppRoutes />, { route: "/docs/nope" });
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Back to Dashboard/ })).toBeInTheDocument();
  });
});

describe("track record", () => {
  it("is a public page with its own title, reachable signed in or out", async () => {
    visitor();
    const { unmount } = renderWithProviders(<AppRoutes />, { route: "/track-record" });
    expect(await screen.findByRole("heading", { level: 1, name: "Track record" })).toBeInTheDocument();
    expect(await screen.findByRole("tabpanel", { name: "Pooled" })).toBeInTheDocument();
    expect(document.title).toBe("Track record · Strikeline");
    expect(document.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/append-only log/);
    expect(screen.getByRole("contentinfo")).toContainElement(screen.getByRole("link", { name: "Track record" }));
    unmount();

    vi.unstubAllGlobals();
    member({}, trackRecordApi);
    renderWithProviders(<AppRoutes />, { route: "/track-record" });
    expect(await screen.findByRole("heading", { level: 1, name: "Track record" })).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Go to Dashboard" }).length).toBeGreaterThan(0);
  });
});

describe("API explorer", () => {
  it("lists the endpoints, opens the default, and copies with a 2-second indicator", async () => {
    visitor();
    renderWithProviders(<AppRoutes />, { route: "/api" });
    const detail = await screen.findByTestId("endpoint-detail");
    // No signals endpoint in this document: the first one is selected.
    expect(within(detail).getByRole("heading", { name: "/api/contact" })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: /GET \/api\/plans/ }));
    expect(within(screen.getByTestId("endpoint-detail")).getByRole("heading", { name: "/api/plans" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /POST \/api\/contact/ }));
    expect(within(screen.getByTestId("endpoint-detail")).getByText("Send a message to the team.")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Parameters" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("cell", { name: /email/ })).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Example" }));
    const copy = screen.getByRole("button", { name: "Copy curl example" });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(copy);
    // user-event provides the clipboard in jsdom.
    expect(await navigator.clipboard.readText()).toContain("curl -X POST");
    expect(await screen.findByRole("button", { name: "curl example copied" })).toHaveTextContent("Copied");
    vi.advanceTimersByTime(2100);
    await waitFor(() => expect(screen.getByRole("button", { name: "Copy curl example" })).toHaveTextContent("Copy"));

    expect(await screen.findByRole("cell", { name: "Pro" })).toBeInTheDocument();
    expect(screen.getByRole("cell", { name: "1,000" })).toBeInTheDocument();
    expect(document.title).toBe("API Reference · Strikeline");
  });
});
