import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "@/lib/api/client";
import { captureDownloads } from "@/test/fixtures";
import { PDF_BYTES } from "@/test/report-fixtures";
import { mockFetch, problem, renderWithProviders } from "@/test/utils";
import { DownloadButton } from "./download-button";

afterEach(() => vi.unstubAllGlobals());

const pdf = (name: string) =>
  new Response(PDF_BYTES, { headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${name}"` } });

function renderButton() {
  return renderWithProviders(
    <DownloadButton
      label="Download report"
      request={() => api.GET("/api/portfolio/report", { parseAs: "blob" })}
      fallbackName="portfolio-report.pdf"
    />,
  );
}

describe("DownloadButton", () => {
  it("is busy and disabled while the file is made, then saves it under the server's name", async () => {
    const downloads = captureDownloads();
    let answer: (r: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderButton();
    await userEvent.setup().click(screen.getByRole("button", { name: "Download report" }));
    const busy = screen.getByRole("button", { name: "Preparing PDF…" });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute("aria-busy", "true");
    expect(screen.getByRole("status")).toHaveTextContent("Download report: preparing the file");
    answer(pdf("portfolio-report-2026-11-28.pdf"));
    await waitFor(() => expect(screen.getByRole("button", { name: "Download report" })).toBeEnabled());
    expect(screen.getByRole("button", { name: "Download report" })).toHaveAttribute("aria-busy", "false");
    expect(downloads.names).toEqual(["portfolio-report-2026-11-28.pdf"]);
  });

  it("toasts the server's reason when it refuses, and can be pressed again", async () => {
    const downloads = captureDownloads();
    mockFetch(() => problem(429, "Too Many Requests", "Too many reports. Try again in 12 minute(s)."));
    renderButton();
    await userEvent.setup().click(screen.getByRole("button", { name: "Download report" }));
    expect(await screen.findByText("Download failed", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(
      screen.getByText("Too many reports. Try again in 12 minute(s).", { selector: '[data-slot="toast-description"]' }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Download report" })).toBeEnabled();
    expect(downloads.names).toEqual([]);
  });
});
