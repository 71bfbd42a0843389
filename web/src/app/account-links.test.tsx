import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { signedInApi } from "@/test/fixtures";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

// Verified accounts in the app: the banner of the signed-in shell, and the pages the emailed
// links open (/verify-email, /reset-password) and /forgot-password, signed in and out.

afterEach(() => vi.unstubAllGlobals());

const LINK_USED = "This link has expired or was already used. Ask for a new one.";
const SAME_ANSWER = "If an account uses that address, we have sent it a link to choose a new password. It works for 30 minutes.";

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/** A server with `user` signed in (null: signed out); `extra` answers first. */
function server(user: User | null, extra: Handler = () => undefined) {
  return mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    if (url === "/api/auth/me") return user ? jsonResponse(user) : problem(401, "Unauthorized");
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

const unconfirmed = () =>
  makeUser({ emailVerified: false, subscriptionPlan: "free", subscriptionStatus: "active", subscriptionExpiresAt: null });
const calls = (fetchMock: ReturnType<typeof mockFetch>, url: string) => fetchMock.mock.calls.filter(([u]) => String(u) === url);

describe("the banner for an unconfirmed address", () => {
  it("asks to confirm the address above every signed-in page, and is gone once it is confirmed", async () => {
    server(unconfirmed());
    const { unmount } = renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    const banner = await screen.findByRole("region", { name: "Confirm your email address" });
    expect(banner).toHaveTextContent("Confirm your email address to start your 14-day Pro trial. We sent a link to ada@example.com.");
    expect(within(banner).getByRole("button", { name: "Send a new link" })).toBeEnabled();
    // Above the page's content, below the top bar.
    expect(banner.compareDocumentPosition(screen.getByRole("main")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    unmount();

    server(makeUser());
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    await screen.findByRole("heading", { name: "Welcome back, Ada" });
    expect(screen.queryByRole("region", { name: "Confirm your email address" })).not.toBeInTheDocument();
  });

  it("sends a new link and says where it went", async () => {
    const fetchMock = server(unconfirmed(), (url) =>
      url === "/api/auth/verify-email/resend" ? new Response(null, { status: 202 }) : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    const banner = await screen.findByRole("region", { name: "Confirm your email address" });
    await userEvent.setup().click(within(banner).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Link Sent")).toBeInTheDocument();
    expect(screen.getByText("We sent a new link to ada@example.com. Earlier links no longer work.")).toBeInTheDocument();
    expect(calls(fetchMock, "/api/auth/verify-email/resend")[0][1]).toMatchObject({ method: "POST" });
  });

  it("shows the server's words for too many links (429)", async () => {
    server(unconfirmed(), (url) =>
      url === "/api/auth/verify-email/resend"
        ? problem(429, "Too Many Requests", "Too many requests. Try again in 1800 second(s).")
        : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    const banner = await screen.findByRole("region", { name: "Confirm your email address" });
    await userEvent.setup().click(within(banner).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Too Many Links")).toBeInTheDocument();
    expect(screen.getByText("Too many requests. Try again in 1800 second(s).")).toBeInTheDocument();
  });

  it("already confirmed elsewhere (409): says so and refetches the user, so the banner goes", async () => {
    let user = unconfirmed();
    server(user, (url) => {
      if (url === "/api/auth/verify-email/resend") {
        user = makeUser();
        return problem(409, "Conflict", "Your email address is already confirmed.");
      }
      if (url === "/api/auth/me") return jsonResponse(user);
      return undefined;
    });
    renderWithProviders(<AppRoutes />, { route: "/dashboard" });
    const banner = await screen.findByRole("region", { name: "Confirm your email address" });
    await userEvent.setup().click(within(banner).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Already Confirmed")).toBeInTheDocument();
    expect(screen.getByText("Your email address is already confirmed.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("region", { name: "Confirm your email address" })).not.toBeInTheDocument());
  });
});

describe("/verify-email", () => {
  it("confirms once on load (StrictMode too), says the trial started and refreshes the signed-in user", async () => {
    const confirmed = makeUser();
    let release: (r: Response) => void = () => {};
    const fetchMock = server(unconfirmed(), (url) =>
      url === "/api/auth/verify-email" ? new Promise<Response>((resolve) => (release = resolve)) : undefined,
    );
    const { queryClient } = renderWithProviders(
      <StrictMode>
        <AppRoutes />
      </StrictMode>,
      { route: "/verify-email?token=tok-123" },
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Confirming your email address" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Confirming your email address");
    expect(bodyOf(fetchMock, "/api/auth/verify-email")).toEqual({ token: "tok-123" });

    release(jsonResponse({ user: confirmed, trialStarted: true }));
    expect(await screen.findByRole("heading", { level: 1, name: "Email address confirmed" })).toBeInTheDocument();
    expect(screen.getByText("ada@example.com is confirmed.")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Your email address is confirmed.");
    expect(screen.getByRole("status")).toHaveTextContent("Your 14-day Pro trial has started");
    expect(screen.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(queryClient.getQueryData(queryKeys.currentUser())).toEqual(confirmed);
    expect(calls(fetchMock, "/api/auth/verify-email")).toHaveLength(1);
  });

  it("signed out: confirms without a session, no trial the second time round, and offers to sign in", async () => {
    server(null, (url) => (url === "/api/auth/verify-email" ? jsonResponse({ user: makeUser(), trialStarted: false }) : undefined));
    renderWithProviders(<AppRoutes />, { route: "/verify-email?token=tok-123" });
    expect(await screen.findByRole("heading", { level: 1, name: "Email address confirmed" })).toBeInTheDocument();
    expect(screen.queryByText(/trial has started/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  });

  it("a used link shows the problem's text and, signed in, a way to send a new one", async () => {
    const fetchMock = server(unconfirmed(), (url) => {
      if (url === "/api/auth/verify-email") {
        return problem(422, "Unprocessable Entity", "Some values are not valid.", [{ field: "token", message: LINK_USED }]);
      }
      if (url === "/api/auth/verify-email/resend") return new Response(null, { status: 202 });
      return undefined;
    });
    renderWithProviders(<AppRoutes />, { route: "/verify-email?token=old" });
    expect(await screen.findByRole("heading", { level: 1, name: "This link did not work" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(LINK_USED);
    expect(screen.getByText("We can send a new link to ada@example.com.")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText("Link Sent")).toBeInTheDocument();
    expect(calls(fetchMock, "/api/auth/verify-email/resend")).toHaveLength(1);
  });

  it("signed out, a used link says how to get a new one; a link without a token asks for nothing", async () => {
    const fetchMock = server(null, (url) =>
      url === "/api/auth/verify-email"
        ? problem(422, "Unprocessable Entity", "Some values are not valid.", [{ field: "token", message: LINK_USED }])
        : undefined,
    );
    const { unmount } = renderWithProviders(<AppRoutes />, { route: "/verify-email?token=old" });
    expect(await screen.findByRole("alert")).toHaveTextContent(LINK_USED);
    expect(screen.queryByRole("button", { name: "Send a new link" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    unmount();

    renderWithProviders(<AppRoutes />, { route: "/verify-email" });
    expect(await screen.findByRole("alert")).toHaveTextContent("This link is incomplete.");
    expect(calls(fetchMock, "/api/auth/verify-email")).toHaveLength(1);
  });
});

describe("/forgot-password", () => {
  it("is linked from the sign-in page", async () => {
    server(null);
    renderWithProviders(<AppRoutes />, { route: "/login" });
    await userEvent.setup().click(await screen.findByRole("link", { name: "Forgot password?" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Forgot your password?" })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/forgot-password");
  });

  it("checks the address, sends it and shows the server's answer, whatever the address", async () => {
    const fetchMock = server(null, (url) =>
      url === "/api/auth/forgot-password" ? jsonResponse({ message: SAME_ANSWER }, 202) : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/forgot-password" });
    const events = userEvent.setup();
    await events.click(await screen.findByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(calls(fetchMock, "/api/auth/forgot-password")).toHaveLength(0);

    await events.type(screen.getByLabelText("Email"), " grace@example.com ");
    await events.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByRole("status")).toHaveTextContent(SAME_ANSWER);
    expect(bodyOf(fetchMock, "/api/auth/forgot-password")).toEqual({ email: "grace@example.com" });
    expect(screen.queryByLabelText("Email")).not.toBeInTheDocument();

    await events.click(screen.getByRole("button", { name: "try another address" }));
    expect(screen.getByLabelText("Email")).toBeInTheDocument();
  });

  it("puts the server's field error under the input (422) and toasts a 429", async () => {
    let answer = problem(422, "Unprocessable Entity", "Some values are not valid.", [
      { field: "email", message: "Enter an email address" },
    ]);
    server(null, (url) => (url === "/api/auth/forgot-password" ? answer : undefined));
    renderWithProviders(<AppRoutes />, { route: "/forgot-password" });
    const events = userEvent.setup();
    await events.type(await screen.findByLabelText("Email"), "ada@example.com");
    await events.click(screen.getByRole("button", { name: "Send Reset Link" }));
    const message = await screen.findByText("Enter an email address");
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-describedby", message.id);

    answer = problem(429, "Too Many Requests", "Too many requests. Try again in 60 second(s).");
    await events.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByText("Too Many Requests")).toBeInTheDocument();
    expect(screen.getByText("Too many requests. Try again in 60 second(s).")).toBeInTheDocument();
  });
});

describe("/reset-password", () => {
  const fill = async (events: ReturnType<typeof userEvent.setup>, password: string, confirmation = password) => {
    await events.type(await screen.findByLabelText("New password"), password);
    await events.type(screen.getByLabelText("Confirm new password"), confirmation);
    await events.click(screen.getByRole("button", { name: "Set New Password" }));
  };

  it("checks length and match before sending", async () => {
    const fetchMock = server(null);
    renderWithProviders(<AppRoutes />, { route: "/reset-password?token=tok" });
    const events = userEvent.setup();
    await fill(events, "short", "other");
    expect(await screen.findByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(screen.getByText("The passwords do not match")).toBeInTheDocument();
    expect(screen.getByLabelText("Confirm new password")).toHaveAttribute("aria-invalid", "true");
    expect(calls(fetchMock, "/api/auth/reset-password")).toHaveLength(0);
  });

  it("sets the password and says every session ended and the API keys were switched off", async () => {
    const fetchMock = server(null, (url) => (url === "/api/auth/reset-password" ? new Response(null, { status: 204 }) : undefined));
    renderWithProviders(<AppRoutes />, { route: "/reset-password?token=tok-9" });
    await fill(userEvent.setup(), "battery-staple-7");
    expect(await screen.findByRole("heading", { level: 1, name: "Password changed" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Every session of your account was signed out");
    expect(screen.getByRole("status")).toHaveTextContent("your API keys were switched off");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    expect(bodyOf(fetchMock, "/api/auth/reset-password")).toEqual({ token: "tok-9", newPassword: "battery-staple-7" });
  });

  it("signed in here too: the session is forgotten and the page still says what happened", async () => {
    server(makeUser(), (url) => (url === "/api/auth/reset-password" ? new Response(null, { status: 204 }) : undefined));
    const { queryClient } = renderWithProviders(<AppRoutes />, { route: "/reset-password?token=tok-9" });
    await fill(userEvent.setup(), "battery-staple-7");
    expect(await screen.findByRole("heading", { level: 1, name: "Password changed" })).toBeInTheDocument();
    expect(queryClient.getQueryData(queryKeys.currentUser())).toBeNull();
    await userEvent.setup().click(screen.getByRole("link", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeInTheDocument();
  });

  it("a link that no longer works is shown above the form with a way to ask for a new one", async () => {
    server(null, (url) =>
      url === "/api/auth/reset-password"
        ? problem(422, "Unprocessable Entity", "Some values are not valid.", [{ field: "token", message: LINK_USED }])
        : undefined,
    );
    renderWithProviders(<AppRoutes />, { route: "/reset-password?token=old" });
    await fill(userEvent.setup(), "battery-staple-7");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(LINK_USED);
    expect(within(alert).getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
  });

  it("the server's newPassword error goes under that field; no token says the link is incomplete", async () => {
    server(null, (url) =>
      url === "/api/auth/reset-password"
        ? problem(422, "Unprocessable Entity", "Some values are not valid.", [
            { field: "newPassword", message: "Password must be at least 6 characters" },
          ])
        : undefined,
    );
    const { unmount } = renderWithProviders(<AppRoutes />, { route: "/reset-password?token=tok" });
    await fill(userEvent.setup(), "      ");
    const message = await screen.findByText("Password must be at least 6 characters");
    expect(screen.getByLabelText("New password")).toHaveAttribute("aria-describedby", message.id);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    unmount();

    renderWithProviders(<AppRoutes />, { route: "/reset-password" });
    expect(await screen.findByRole("alert")).toHaveTextContent("This link is incomplete.");
    expect(screen.getByRole("button", { name: "Set New Password" })).toBeDisabled();
  });
});
