import { afterEach, describe, expect, it, vi } from "vitest";
import { captureDownloads } from "@/test/fixtures";
import { PDF_BYTES } from "@/test/report-fixtures";
import { mockFetch, problem } from "@/test/utils";
import { api } from "./api/client";
import { downloadFromApi, fileNameOf } from "./download";
import * as toasts from "./toast";

afterEach(() => vi.unstubAllGlobals());

const portfolioReport = () => api.GET("/api/portfolio/report", { parseAs: "blob" });

describe("fileNameOf", () => {
  it("reads the name a Content-Disposition gives, the extended form first", () => {
    expect(fileNameOf('attachment; filename="portfolio-report-2026-11-28.pdf"')).toBe("portfolio-report-2026-11-28.pdf");
    expect(fileNameOf("attachment; filename=backtest-report-2026-11-28.pdf")).toBe("backtest-report-2026-11-28.pdf");
    expect(fileNameOf("attachment; filename=\"fallback.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf")).toBe("résumé.pdf");
    expect(fileNameOf('attachment; filename="a \\"quoted\\" name.pdf"')).toBe('a "quoted" name.pdf');
  });

  it("keeps only the last path segment, and is null without a name", () => {
    expect(fileNameOf('attachment; filename="../../etc/passwd.pdf"')).toBe("passwd.pdf");
    expect(fileNameOf('attachment; filename="C:\\\\Users\\\\report.pdf"')).toBe("report.pdf");
    expect(fileNameOf("attachment")).toBeNull();
    expect(fileNameOf(null)).toBeNull();
    expect(fileNameOf('attachment; filename=""')).toBeNull();
  });
});

describe("downloadFromApi", () => {
  it("saves the answer under the name from Content-Disposition, asking with the session cookie", async () => {
    const downloads = captureDownloads();
    const fetchMock = mockFetch(
      () =>
        new Response(PDF_BYTES, {
          headers: { "Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="portfolio-report-2026-11-28.pdf"' },
        }),
    );
    await expect(downloadFromApi(portfolioReport, "portfolio-report.pdf")).resolves.toBe(true);
    expect(downloads.names).toEqual(["portfolio-report-2026-11-28.pdf"]);
    expect(downloads.blobs.map((b) => b.type)).toEqual(["application/pdf"]);
    expect(fetchMock).toHaveBeenCalledWith("/api/portfolio/report", expect.objectContaining({ method: "GET", credentials: "same-origin" }));
  });

  it("falls back to the given name when the server names none", async () => {
    const downloads = captureDownloads();
    mockFetch(() => new Response(PDF_BYTES, { headers: { "Content-Type": "application/pdf" } }));
    await downloadFromApi(portfolioReport, "portfolio-report.pdf");
    expect(downloads.names).toEqual(["portfolio-report.pdf"]);
  });

  it("toasts a problem's detail and saves nothing", async () => {
    const downloads = captureDownloads();
    const toast = vi.spyOn(toasts, "toast");
    mockFetch(() => problem(429, "Too Many Requests", "Too many reports. Try again in 12 minute(s)."));
    await expect(downloadFromApi(portfolioReport, "portfolio-report.pdf")).resolves.toBe(false);
    expect(toast).toHaveBeenCalledWith({
      variant: "destructive",
      title: "Download failed",
      description: "Too many reports. Try again in 12 minute(s).",
    });
    expect(downloads.names).toEqual([]);
  });

  it("says the download failed when the answer is not a problem", async () => {
    captureDownloads();
    const toast = vi.spyOn(toasts, "toast");
    mockFetch(() => new Response("<html>bad gateway</html>", { status: 502 }));
    await downloadFromApi(portfolioReport, "portfolio-report.pdf");
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ description: "The file could not be downloaded. Please try again." }));
  });
});
