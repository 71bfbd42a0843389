import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { ContactForm } from "./contact-form";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";

afterEach(() => vi.unstubAllGlobals());

async function fill(values: { name?: string; email?: string; company?: string; message?: string }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText("Name"), values.name);
  if (values.email) await user.type(screen.getByLabelText("Email"), values.email);
  if (values.company) await user.type(screen.getByLabelText("Company (optional)"), values.company);
  if (values.message) await user.type(screen.getByLabelText("Message"), values.message);
  await user.click(screen.getByRole("button", { name: "Send Message" }));
}

describe("landing ContactForm", () => {
  it("validates name, email and message, and sends nothing", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<ContactForm />);
    await fill({ email: "not-an-email" });
    expect(await screen.findByText("Name is required")).toBeInTheDocument();
    expect(screen.getByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Message is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts with source 'landing', toasts 'Message Sent' and clears the form", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ id: "m1", received: true }, 201));
    renderWithProviders(<ContactForm />);
    await fill({ name: " Ada ", email: "ada@example.com", message: "Do you cover SPY options?" });

    expect(await screen.findByText("Message Sent")).toBeInTheDocument();
    expect(screen.getByText(`We'll get back to you within ${SUPPORT_RESPONSE_TEXT}.`)).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/contact")).toEqual({
      name: "Ada",
      email: "ada@example.com",
      company: null,
      message: "Do you cover SPY options?",
      source: "landing",
    });
    await waitFor(() => expect(screen.getByLabelText("Name")).toHaveValue(""));
    expect(screen.getByLabelText("Message")).toHaveValue("");
  });

  it("sends the company when given", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ id: "m1", received: true }, 201));
    renderWithProviders(<ContactForm />);
    await fill({ name: "Ada", email: "ada@example.com", company: "Analytical Engines", message: "Hello" });
    await screen.findByText("Message Sent");
    expect(bodyOf(fetchMock, "/api/contact")).toMatchObject({ company: "Analytical Engines" });
  });

  it("shows the server's field errors and its problem detail, keeping the input", async () => {
    mockFetch(() => problem(422, "Invalid request", "Invalid email address", [{ field: "email", message: "Invalid email address" }]));
    renderWithProviders(<ContactForm />);
    await fill({ name: "Ada", email: "ada@example.co", message: "Hello" });
    expect(await screen.findByText("Message Not Sent")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Name")).toHaveValue("Ada");
  });

  it("shows a rate limit as the server words it", async () => {
    mockFetch(() => problem(429, "Too Many Requests", "Too many messages from this address. Try again in 3600 seconds."));
    renderWithProviders(<ContactForm />);
    await fill({ name: "Ada", email: "ada@example.com", message: "Hello" });
    expect(await screen.findByText("Too many messages from this address. Try again in 3600 seconds.")).toBeInTheDocument();
  });
});
