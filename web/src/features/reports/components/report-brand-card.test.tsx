import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReportBrandInput, ReportBrandView } from "@/lib/api/models";
import { makeReportBrand, makeSavedReportBrand } from "@/test/report-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { ReportBrandCard } from "./report-brand-card";

beforeEach(() => {
  // jsdom has no ResizeObserver; Radix measures a switch inside a form with one.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

type Sent = { method: string; url: string; body: unknown; contentType: string | undefined };

/**
 * A server keeping the brand: PUT saves it (or answers `refuse` when given), the logo's PUT
 * and DELETE set `hasLogo`, DELETE of the brand returns to the house brand.
 */
function brandServer(initial: ReportBrandView, { refuse }: { refuse?: () => Response } = {}) {
  let stored = initial;
  const sent: Sent[] = [];
  const fetchMock = mockFetch((url, init) => {
    const method = init.method ?? "GET";
    const headers = (init.headers ?? {}) as Record<string, string>;
    const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    if (method !== "GET") sent.push({ method, url, body, contentType: headers["Content-Type"] });
    if (url === "/api/reports/brand" && method === "GET") return jsonResponse(stored);
    if (url === "/api/reports/brand" && method === "PUT") {
      if (refuse) return refuse();
      stored = { ...stored, ...(body as ReportBrandInput), custom: true };
      return jsonResponse(stored);
    }
    if (url === "/api/reports/brand" && method === "DELETE") {
      stored = makeReportBrand({ available: stored.available });
      return new Response(null, { status: 204 });
    }
    if (url === "/api/reports/brand/logo" && method === "PUT") {
      stored = { ...stored, hasLogo: true };
      return new Response(null, { status: 204 });
    }
    if (url === "/api/reports/brand/logo" && method === "DELETE") {
      stored = { ...stored, hasLogo: false };
      return new Response(null, { status: 204 });
    }
    return problem(404, "Not Found");
  });
  return { sent, fetchMock };
}

/** A PNG file of `bytes` bytes (its content is not read before it is sent). */
function pngFile(bytes: number, name = "logo.png") {
  return new File([new Uint8Array(bytes)], name, { type: "image/png" });
}

describe("ReportBrandCard", () => {
  it("is locked below Premium, and says reports still download in the house brand", async () => {
    const { sent } = brandServer(makeReportBrand({ available: false }));
    renderWithProviders(<ReportBrandCard />);
    const locked = await screen.findByTestId("report-brand-locked");
    expect(within(locked).getByText("Reports in your own brand")).toBeInTheDocument();
    expect(within(locked).getByText(/Reports in your own brand are part of Premium/)).toBeInTheDocument();
    expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
    expect(screen.getByText(/Reports can still be downloaded on every plan, in the Strikeline brand/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Portfolio" })).toHaveAttribute("href", "/portfolio");
    expect(screen.queryByLabelText("Brand name")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save branding" })).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it("saves the brand as typed, with the preview following the form", async () => {
    const { sent } = brandServer(makeReportBrand());
    renderWithProviders(<ReportBrandCard />);
    const user = userEvent.setup();
    const name = await screen.findByLabelText("Brand name");
    // Without a brand of its own the form starts from the house colours, with no name or footer.
    expect(name).toHaveValue("");
    expect(screen.getByLabelText("Primary colour")).toHaveValue("#2563eb");
    expect(screen.getByLabelText("Footer")).toHaveValue("");
    expect(screen.getByText("0/300 characters")).toBeInTheDocument();

    await user.type(name, "Acme Capital");
    const primary = screen.getByLabelText("Primary colour");
    await user.clear(primary);
    await user.type(primary, "#7C3AED");
    await user.type(screen.getByLabelText("Footer"), "Acme Capital LLC · Not investment advice.");
    await user.click(screen.getByRole("switch", { name: "Email my portfolio report at the start of each month" }));

    expect(screen.getByTestId("brand-preview-name")).toHaveTextContent("Acme Capital");
    expect(screen.getByTestId("brand-preview-name")).toHaveStyle({ color: "#7c3aed" });
    expect(screen.getByTestId("brand-preview-footer")).toHaveTextContent("Acme Capital LLC · Not investment advice.");
    expect(screen.getByLabelText("Primary colour picker")).toHaveValue("#7c3aed");
    expect(screen.getByText("41/300 characters")).toBeInTheDocument();
    // The logo waits for a saved brand.
    expect(screen.getByLabelText("Upload logo (PNG)")).toBeDisabled();
    expect(screen.getByText(/Save your brand first/)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Save branding" }));
    expect(await screen.findByText("Branding saved", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: "PUT",
        url: "/api/reports/brand",
        contentType: "application/json",
        body: {
          name: "Acme Capital",
          primaryColor: "#7C3AED",
          accentColor: "#16a34a",
          footer: "Acme Capital LLC · Not investment advice.",
          monthlyEmail: true,
        },
      },
    ]);
    // Saved: the logo may be uploaded now, and the brand may be reset.
    await waitFor(() => expect(screen.getByLabelText("Upload logo (PNG)")).toBeEnabled());
    expect(screen.getByRole("button", { name: "Reset to Strikeline branding" })).toBeInTheDocument();
  });

  it("checks the form before sending, and shows the server's field errors next to their fields", async () => {
    const { sent } = brandServer(makeSavedReportBrand(), {
      refuse: () =>
        problem(422, "Unprocessable Entity", "Some fields are not valid", [
          { field: "name", message: "One line, without control characters" },
          { field: "accentColor", message: "A colour as #rrggbb, e.g. #1d4ed8" },
        ]),
    });
    renderWithProviders(<ReportBrandCard />);
    const user = userEvent.setup();
    const name = await screen.findByLabelText("Brand name");
    expect(name).toHaveValue("Acme Capital");

    // The client's own check: an empty name and a colour that is not #rrggbb are not sent.
    await user.clear(name);
    const primary = screen.getByLabelText("Primary colour");
    await user.clear(primary);
    await user.type(primary, "purple");
    await user.click(screen.getByRole("button", { name: "Save branding" }));
    expect(await screen.findByText("Enter the name your reports carry")).toBeInTheDocument();
    expect(screen.getByText("A colour as #rrggbb, e.g. #1d4ed8")).toBeInTheDocument();
    expect(sent).toEqual([]);

    // The server's refusal: each message under its field, the field marked invalid.
    await user.type(name, "Acme Capital");
    await user.clear(primary);
    await user.type(primary, "#7c3aed");
    await user.click(screen.getByRole("button", { name: "Save branding" }));
    expect(await screen.findByText("One line, without control characters")).toBeInTheDocument();
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("One line, without control characters");
    const accent = screen.getByLabelText("Accent colour");
    expect(accent).toHaveAttribute("aria-invalid", "true");
    expect(accent).toHaveAccessibleDescription("A colour as #rrggbb, e.g. #1d4ed8");
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(["PUT /api/reports/brand"]);
    expect(screen.queryByText("Branding saved")).not.toBeInTheDocument();
  });

  it("warns when the primary colour will read faintly on white, and links the monthly email to its setting", async () => {
    brandServer(makeSavedReportBrand());
    renderWithProviders(<ReportBrandCard />);
    const user = userEvent.setup();
    const primary = await screen.findByLabelText("Primary colour");
    expect(screen.queryByText(/This colour is light/)).not.toBeInTheDocument();
    await user.clear(primary);
    await user.type(primary, "#fde047");
    expect(primary).toHaveAccessibleDescription(/This colour is light: the name and headings will read faintly on white paper\./);
    expect(screen.getByRole("link", { name: "Notifications" })).toHaveAttribute("href", "/settings?tab=notifications");
  });

  it("refuses a logo over 512 KB before uploading it, and uploads a PNG as it is", async () => {
    const { sent } = brandServer(makeSavedReportBrand());
    renderWithProviders(<ReportBrandCard />);
    const user = userEvent.setup();
    const input = await screen.findByLabelText("Upload logo (PNG)");
    expect(input).toHaveAttribute("accept", "image/png");

    await user.upload(input, pngFile(512 * 1024 + 1, "big.png"));
    expect(await screen.findByRole("alert")).toHaveTextContent("This file is 513 KB; the logo may be at most 512 KB.");
    expect(sent).toEqual([]);

    const small = pngFile(2048);
    await user.upload(input, small);
    expect(await screen.findByText("Logo uploaded", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(sent).toEqual([{ method: "PUT", url: "/api/reports/brand/logo", body: small, contentType: "image/png" }]);
    const logo = screen.getByRole("img", { name: "Acme Capital logo" });
    expect(logo.getAttribute("src")).toMatch(/^\/api\/reports\/brand\/logo\?v=\d+$/);
    expect(screen.getByLabelText("Replace logo (PNG)")).toBeEnabled();

    await user.click(screen.getByRole("button", { name: "Remove logo" }));
    await waitFor(() => expect(screen.queryByRole("img", { name: "Acme Capital logo" })).not.toBeInTheDocument());
    expect(sent.at(-1)).toMatchObject({ method: "DELETE", url: "/api/reports/brand/logo" });
  });

  it("shows the server's reason for a logo it refuses under the file input", async () => {
    mockFetch((url, init) => {
      if (url === "/api/reports/brand") return jsonResponse(makeSavedReportBrand());
      if (url === "/api/reports/brand/logo" && init.method === "PUT") {
        return problem(422, "Unprocessable Entity", undefined, [
          { field: "logo", message: "The logo is 2400 × 300 px; at most 2000 px a side" },
        ]);
      }
      return problem(404, "Not Found");
    });
    renderWithProviders(<ReportBrandCard />);
    await userEvent.setup().upload(await screen.findByLabelText("Upload logo (PNG)"), pngFile(1000));
    expect(await screen.findByRole("alert")).toHaveTextContent("The logo is 2400 × 300 px; at most 2000 px a side");
  });

  it("resets to the house brand after asking", async () => {
    const { sent } = brandServer(makeSavedReportBrand({ hasLogo: true }));
    renderWithProviders(<ReportBrandCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Reset to Strikeline branding" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText(/brand name, colours, footer and logo are deleted/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Reset branding" }));
    expect(await screen.findByText("Branding reset", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(sent).toEqual([{ method: "DELETE", url: "/api/reports/brand", body: undefined, contentType: undefined }]);
    await waitFor(() => expect(screen.getByLabelText("Brand name")).toHaveValue(""));
    expect(screen.queryByRole("button", { name: "Reset to Strikeline branding" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Upload logo (PNG)")).toBeDisabled();
  });
});
