import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { NewsletterForm } from "./newsletter-form";

afterEach(() => vi.unstubAllGlobals());

async function subscribe(email: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText("Email address"), email);
  await user.click(screen.getByRole("button", { name: "Subscribe" }));
}

describe("NewsletterForm", () => {
  it("validates the address", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<NewsletterForm />);
    await subscribe("nope");
    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("subscribes, toasts and clears", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ subscribed: true }, 201));
    renderWithProviders(<NewsletterForm />);
    await subscribe("ada@example.com");
    expect(await screen.findByText("Subscribed")).toBeInTheDocument();
    expect(screen.getByText("You're on the list. We'll email new articles to ada@example.com.")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/newsletter")).toEqual({ email: "ada@example.com" });
    await waitFor(() => expect(screen.getByLabelText("Email address")).toHaveValue(""));
  });

  it("says so when the address is already subscribed (200)", async () => {
    mockFetch(() => jsonResponse({ subscribed: true }, 200));
    renderWithProviders(<NewsletterForm />);
    await subscribe("ada@example.com");
    expect(await screen.findByText("You're already on the list: new articles go to ada@example.com.")).toBeInTheDocument();
  });

  it("shows the server's detail when it refuses", async () => {
    mockFetch(() => problem(429, "Too Many Requests", "Too many sign-ups from this address. Try again in 120 seconds."));
    renderWithProviders(<NewsletterForm />);
    await subscribe("ada@example.com");
    expect(await screen.findByText("Subscription Failed")).toBeInTheDocument();
    expect(screen.getByText("Too many sign-ups from this address. Try again in 120 seconds.")).toBeInTheDocument();
  });
});
