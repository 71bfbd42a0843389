import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { HelpContactForm } from "./help-contact-form";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";

afterEach(() => vi.unstubAllGlobals());

async function fill(values: Partial<Record<"Name" | "Email" | "Subject" | "Message", string>>) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) await user.type(screen.getByLabelText(label), value);
  await user.click(screen.getByRole("button", { name: "Send Message" }));
}

describe("HelpContactForm", () => {
  it("requires every field", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<HelpContactForm />);
    await fill({});
    expect(await screen.findByText("Name is required")).toBeInTheDocument();
    expect(screen.getByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Subject is required")).toBeInTheDocument();
    expect(screen.getByText("Message is required")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts with source 'help', toasts and clears", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ id: "m2", received: true }, 201));
    renderWithProviders(<HelpContactForm />);
    await fill({ Name: "Grace", Email: "grace@example.com", Subject: "Billing", Message: "Was I charged twice?" });
    expect(await screen.findByText("Message Sent")).toBeInTheDocument();
    expect(screen.getByText(`We've received your message and will respond within ${SUPPORT_RESPONSE_TEXT}.`)).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/contact")).toEqual({
      name: "Grace",
      email: "grace@example.com",
      subject: "Billing",
      message: "Was I charged twice?",
      source: "help",
    });
    await waitFor(() => expect(screen.getByLabelText("Subject")).toHaveValue(""));
  });

  it("shows the server's problem detail on failure", async () => {
    mockFetch(() => problem(422, "Invalid request", "At most 200 characters", [{ field: "subject", message: "At most 200 characters" }]));
    renderWithProviders(<HelpContactForm />);
    await fill({ Name: "Grace", Email: "grace@example.com", Subject: "Billing", Message: "Hi" });
    expect(await screen.findByText("Message Not Sent")).toBeInTheDocument();
    expect(screen.getAllByText("At most 200 characters").length).toBeGreaterThan(0);
    expect(screen.getByLabelText("Subject")).toHaveAttribute("aria-invalid", "true");
  });
});
