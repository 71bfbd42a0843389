import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SmsSettings } from "@/lib/api/models";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { SmsCard } from "./sms-card";

afterEach(() => vi.unstubAllGlobals());

function settings(overrides: Partial<SmsSettings> = {}): SmsSettings {
  return {
    offered: true,
    phone: null,
    verified: false,
    codePending: false,
    optedOut: false,
    events: ["position_closed", "price_alert"],
    quietHours: null,
    verifiedAt: null,
    ...overrides,
  };
}

/** A server keeping the SMS settings: `+1 202 555 0143` gets code 123456; anything else is a 422. */
function smsServer(initial: SmsSettings) {
  let stored = initial;
  const sent: { method: string; url: string; body: unknown }[] = [];
  mockFetch((url, init) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    if (method !== "GET") sent.push({ method, url, body });
    if (url === "/api/sms" && method === "GET") return jsonResponse(stored);
    if (url === "/api/sms/phone" && method === "PUT") {
      if ((body as { phone: string }).phone !== "+1 202 555 0143") {
        return problem(422, "Unprocessable Entity", undefined, [{ field: "phone", message: "Enter the number in international form." }]);
      }
      stored = { ...stored, phone: "+12025550143", codePending: true, verified: false };
      return jsonResponse(stored, 202);
    }
    if (url === "/api/sms/phone/verify") {
      if ((body as { code: string }).code !== "123456") {
        return problem(422, "Unprocessable Entity", undefined, [{ field: "code", message: "That code is not right. 4 tries left." }]);
      }
      stored = { ...stored, verified: true, codePending: false };
      return jsonResponse(stored);
    }
    if (url === "/api/sms/preferences") {
      stored = { ...stored, ...(body as Partial<SmsSettings>) };
      return jsonResponse(stored);
    }
    return jsonResponse({});
  });
  return { sent };
}

describe("SmsCard", () => {
  it("shows nothing where the deployment does not text", async () => {
    smsServer(settings({ offered: false }));
    const { container } = renderWithProviders(<SmsCard available />);
    await waitFor(() => expect(screen.queryByText("Loading your text-message settings")).not.toBeInTheDocument());
    expect(container.querySelector("[data-slot=card]")).toBeNull();
    expect(screen.queryByText("Text messages")).not.toBeInTheDocument();
  });

  it("verifies a number with the code texted to it, naming what is wrong on the way", async () => {
    const server = smsServer(settings());
    renderWithProviders(<SmsCard available />);
    const number = await screen.findByLabelText("Mobile number");
    await userEvent.type(number, "202 555 0143");
    await userEvent.click(screen.getByRole("button", { name: "Send code" }));
    expect(await screen.findByText("Enter the number in international form.")).toBeInTheDocument();
    await userEvent.clear(number);
    await userEvent.type(number, "+1 202 555 0143");
    await userEvent.click(screen.getByRole("button", { name: "Send code" }));

    expect(await screen.findByText("+12025550143")).toBeInTheDocument();
    const code = screen.getByLabelText("Code");
    await userEvent.type(code, "111111");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("That code is not right. 4 tries left.")).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, "123456");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Texts go to +12025550143")).toBeInTheDocument();
    expect(server.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      "PUT /api/sms/phone",
      "PUT /api/sms/phone",
      "POST /api/sms/phone/verify",
      "POST /api/sms/phone/verify",
    ]);
  });

  it("saves the kinds texted and the quiet hours as a whole", async () => {
    const server = smsServer(settings({ phone: "+12025550143", verified: true }));
    renderWithProviders(<SmsCard available />);
    await userEvent.click(await screen.findByRole("switch", { name: "Billing" }));
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: "PUT",
        url: "/api/sms/preferences",
        body: { events: ["position_closed", "price_alert", "billing"], quietHours: null },
      }),
    );
    await userEvent.click(screen.getByRole("switch", { name: "Quiet hours" }));
    await waitFor(() =>
      expect(server.sent.at(-1)).toEqual({
        method: "PUT",
        url: "/api/sms/preferences",
        body: { events: ["position_closed", "price_alert", "billing"], quietHours: { start: "22:00", end: "07:00" } },
      }),
    );
    expect(await screen.findByLabelText("From")).toHaveValue("22:00");
  });

  it("says when the number replied STOP, and is locked without the plan", async () => {
    smsServer(settings({ phone: "+12025550143", verified: true, optedOut: true }));
    const { unmount } = renderWithProviders(<SmsCard available />);
    expect(await screen.findByText(/This number replied STOP/)).toBeInTheDocument();
    unmount();
    renderWithProviders(<SmsCard available={false} />);
    expect(await screen.findByTestId("sms-locked")).toHaveTextContent("Upgrade to Pro");
    expect(screen.getByRole("button", { name: "Remove number" })).toBeInTheDocument();
  });
});
