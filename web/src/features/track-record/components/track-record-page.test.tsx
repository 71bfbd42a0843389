import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TrackRecordSummary } from "@/lib/api/models";
import { captureDownloads } from "@/test/fixtures";
import { PDF_BYTES } from "@/test/report-fixtures";
import {
  makeHeadList,
  makeHeldOutEvaluation,
  makePublishedModel,
  makeTrackRecordSummary,
  PUBLIC_KEY,
  trackRecordApi,
} from "@/test/track-record-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { TrackRecordPage } from "./track-record-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(answer: (url: string) => Response | undefined = () => undefined, { signedIn = false } = {}) {
  const fetchMock = mockFetch((url) => answer(url) ?? trackRecordApi(url) ?? problem(404, "Not Found"));
  renderWithProviders(<TrackRecordPage signedIn={signedIn} />, { route: "/track-record" });
  return fetchMock;
}

/** The rows of a table's body, each as its cells' text. */
function bodyRows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => Array.from(row.querySelectorAll("th, td"), (cell) => cell.textContent ?? ""));
}

describe("the track record page", () => {
  it("offers the PDF report to a signed-in account only", async () => {
    const downloads = captureDownloads();
    const fetchMock = renderPage(
      (url) =>
        url === "/api/track-record/report"
          ? new Response(PDF_BYTES, {
              headers: {
                "Content-Type": "application/pdf",
                "Content-Disposition": 'attachment; filename="track-record-report-2026-11-28.pdf"',
              },
            })
          : undefined,
      { signedIn: true },
    );
    await userEvent.setup().click(await screen.findByRole("button", { name: "Download report" }));
    await waitFor(() => expect(downloads.names).toEqual(["track-record-report-2026-11-28.pdf"]));
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/track-record/report")).toHaveLength(1);
    cleanup();

    renderPage();
    expect(await screen.findByTestId("coverage")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Download report" })).not.toBeInTheDocument();
  });

  it("states the pooled group's n and period, and shows a missed target in words, not colour alone", async () => {
    renderPage();
    expect(await screen.findByRole("heading", { level: 1, name: "Track record" })).toBeInTheDocument();
    expect(await screen.findByTestId("coverage")).toHaveTextContent("120 resolved live signals, resolved Sep 2, 2026 – Nov 23, 2026.");

    const panel = screen.getByRole("tabpanel", { name: "Pooled" });
    expect(within(panel).getByRole("heading", { level: 3, name: "Pooled" })).toBeInTheDocument();
    expect(within(panel).getByTestId("group-sample")).toHaveTextContent(
      "120 resolved live signals, resolved Sep 2, 2026 – Nov 23, 2026; 66 won.",
    );
    expect(within(panel).getByTestId("target-ece")).toHaveTextContent("Calibration target ECE ≤ 0.05: missed (0.0731)");
    expect(within(panel).getByTestId("target-ece")).toHaveTextContent("Missed");
    expect(within(panel).getByTestId("target-skill")).toHaveTextContent("Skill target > 0: met (0.0412)");

    const figures = within(panel).getByRole("table", { name: "Pooled: figures" });
    // A row's header holds its name (and, on a phone, its meaning under it): jsdom applies no CSS, so both are in its name here.
    const figure = (name: string) => within(figures).getByRole("rowheader", { name: new RegExp(`^${name.replace(/[()]/g, "\\$&")} `) });
    expect(within(figure("Brier score").closest("tr")!).getAllByRole("cell")[0]).toHaveTextContent("0.2143");
    expect(within(figure("ECE (equal-count)").closest("tr")!).getAllByRole("cell")[0]).toHaveTextContent("0.0812");
    expect(within(figure("Base rate").closest("tr")!).getAllByRole("cell")[0]).toHaveTextContent("55.0%");
    for (const name of ["Reliability", "Resolution", "Uncertainty", "Within-bin variance", "Within-bin covariance", "Brier skill score"]) {
      expect(figure(name)).toBeInTheDocument();
    }

    expect(within(panel).getByRole("img", { name: /^Rolling 90-day Brier score, Pooled: 4 points/ })).toBeInTheDocument();
    expect(within(panel).getByText(/Latest: 0\.2143 over 120 signals resolved in the 90 days to Nov 23, 2026/)).toBeInTheDocument();

    expect(screen.getByTestId("left-out")).toHaveTextContent(
      "Left out: 240 replayed (recomputed from stored history when the server first started, not issued live), 3 unrecorded",
    );
    expect(screen.getByTestId("left-out")).toHaveTextContent("17 without an outcome");
  });

  it("lists every bin in the table, and equal-count bins replace them when chosen", async () => {
    renderPage();
    const panel = await screen.findByRole("tabpanel", { name: "Pooled" });
    const diagram = within(panel).getByRole("img", { name: "Reliability diagram, Pooled, equal-width bins" });
    expect(within(diagram).getAllByTestId("reliability-point")).toHaveLength(5);
    expect(within(diagram).getByTestId("perfect-calibration")).toBeInTheDocument();

    const widthTable = within(panel).getByRole("table", { name: /^Pooled: equal-width bins/ });
    const widthRows = bodyRows(widthTable);
    expect(widthRows).toHaveLength(10);
    expect(widthRows[0]).toEqual(["0%–10%", "0", "—", "—", "—", "—"]);
    expect(widthRows[4]).toEqual(["40%–50%", "18", "8", "45.2%", "44.4%", "24.6%–66.3%"]);

    const user = userEvent.setup();
    const equalWidth = within(panel).getByRole("button", { name: "Equal-width bins" });
    const equalCount = within(panel).getByRole("button", { name: "Equal-count bins" });
    expect(equalWidth).toHaveAttribute("aria-pressed", "true");
    await user.click(equalCount);
    expect(equalCount).toHaveAttribute("aria-pressed", "true");
    expect(equalWidth).toHaveAttribute("aria-pressed", "false");

    expect(within(panel).queryByRole("table", { name: /^Pooled: equal-width bins/ })).not.toBeInTheDocument();
    const countRows = bodyRows(within(panel).getByRole("table", { name: /^Pooled: equal-count bins/ }));
    expect(countRows).toHaveLength(10);
    expect(countRows[0]).toEqual(["41%–48%", "12", "5", "45.2%", "41.7%", "19.3%–68.0%"]);
    expect(countRows.map((row) => row[1])).toEqual(Array(10).fill("12"));
    const countDiagram = within(panel).getByRole("img", { name: "Reliability diagram, Pooled, equal-count bins" });
    expect(within(countDiagram).getAllByTestId("reliability-point")).toHaveLength(10);
  });

  it("a strategy under 30 resolved signals shows its n and no figure; the tabs work from the keyboard", async () => {
    renderPage();
    const user = userEvent.setup();
    const tabs = await screen.findByRole("tablist", { name: "Signals to show" });
    expect(
      within(tabs)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual(["Pooled", "Momentum", "Mean Reversion", "Breakout", "Volatility"]);

    await user.click(within(tabs).getByRole("tab", { name: "Momentum" }));
    await user.keyboard("{ArrowRight}");
    const thin = within(tabs).getByRole("tab", { name: "Mean Reversion" });
    expect(thin).toHaveAttribute("aria-selected", "true");
    expect(thin).toHaveFocus();

    const panel = screen.getByRole("tabpanel", { name: "Mean Reversion" });
    expect(within(panel).getByTestId("group-sample")).toHaveTextContent("12 resolved live signals, resolved Oct 6, 2026 – Nov 20, 2026.");
    expect(within(panel).getByTestId("too-few")).toHaveTextContent(
      "A figure needs at least 30 resolved live signals, and this group has 12 so far, so no figure is shown yet.",
    );
    expect(within(panel).queryByRole("table")).not.toBeInTheDocument();
    expect(within(panel).queryByRole("img")).not.toBeInTheDocument();
    expect(within(panel).queryByText(/target/)).not.toBeInTheDocument();
  });

  it("shows the risk-neutral calibration with its targets met", async () => {
    renderPage();
    const section = await screen.findByTestId("risk-neutral");
    expect(within(section).getByRole("heading", { level: 2, name: "Risk-neutral probability of profit" })).toBeInTheDocument();
    expect(await within(section).findByTestId("target-ece")).toHaveTextContent("Calibration target ECE ≤ 0.05: met (0.0318)");
    expect(within(section).getByTestId("target-skill")).toHaveTextContent("Skill target > 0: met (0.1502)");
    expect(within(section).getByTestId("group-sample")).toHaveTextContent(
      "64 resolved live signals, resolved Oct 16, 2026 – Nov 20, 2026; 27 ended in profit.",
    );
    const diagram = within(section).getByRole("img", { name: "Reliability diagram, Probability of profit at issue, equal-width bins" });
    expect(diagram).toHaveTextContent("Mean forecast (probability of profit)");
    expect(diagram).toHaveTextContent("Share that ended in profit");
  });

  it("a group where every signal won has no skill score, and says so", async () => {
    const summary = makeTrackRecordSummary();
    summary.pooled.figures = { ...summary.pooled.figures!, skill: null, meetsSkillTarget: false };
    renderPage((url) => (url === "/api/public/track-record" ? jsonResponse(summary) : undefined));
    const panel = await screen.findByRole("tabpanel", { name: "Pooled" });
    expect(within(panel).getByTestId("target-skill")).toHaveTextContent(
      "Skill target > 0: missed (no skill score: every signal in the group won, or every one lost)",
    );
  });

  it("lets anyone check the record: the export link, the key, the latest head, the command and the proof endpoint", async () => {
    const fetchMock = renderPage();
    const download = await screen.findByRole("link", { name: "Download the record" });
    expect(download).toHaveAttribute("href", "/api/public/track-record/export");
    expect(download).toHaveAttribute("download", "track-record.json");
    expect(await screen.findByTestId("public-key")).toHaveTextContent(PUBLIC_KEY);
    expect(screen.getByRole("button", { name: "Copy public key" })).toBeInTheDocument();
    expect(screen.getByTestId("verify-command")).toHaveTextContent(`strikeline verify track-record.json --key ${PUBLIC_KEY}`);
    const head = await screen.findByTestId("latest-head");
    expect(head).toHaveTextContent("1,482 entries");
    expect(head).toHaveTextContent("5f4c1a0a2f1e6bb0d1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718");
    expect(screen.getByText("GET /api/public/track-record/signals/{id}/proof")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "Check it yourself" })).toBeInTheDocument();
    expect(screen.getByText(/RFC 9162/)).toHaveTextContent("Every hour the server signs the tree's head");

    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls).toContain("/api/public/track-record/heads?limit=1");
    expect(urls).not.toContain("/api/public/track-record/export");
  });

  it("says when no tree head has been signed yet", async () => {
    renderPage((url) => (url.startsWith("/api/public/track-record/heads") ? jsonResponse(makeHeadList(null)) : undefined));
    expect(await screen.findByText(/No tree head has been signed yet/)).toBeInTheDocument();
  });

  it("a failed fetch shows an alert with Try again, and the checking section still works", async () => {
    renderPage((url) => (url === "/api/public/track-record" ? problem(500, "Internal Server Error") : undefined));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to fetch the track record");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(await screen.findByTestId("public-key")).toHaveTextContent(PUBLIC_KEY);
  });
});

describe("the track record page: predictive model", () => {
  /** The page answered with `summary`; resolves to the model section once it has loaded. */
  async function modelSection(summary: TrackRecordSummary = makeTrackRecordSummary()) {
    renderPage((url) => (url === "/api/public/track-record" ? jsonResponse(summary) : undefined));
    const section = await screen.findByTestId("predictive-model");
    expect(within(section).getByRole("heading", { level: 2, name: "Predictive model" })).toBeInTheDocument();
    return section;
  }

  it("shows the newest model, that it ships, and how it beat the strength score on the held-out years", async () => {
    const section = await modelSection();
    const facts = within(section).getByTestId("model-facts");
    expect(within(facts).getByText("Version").nextElementSibling).toHaveTextContent("2026-11-20.1");
    expect(within(facts).getByText("Trained through").nextElementSibling).toHaveTextContent("Nov 20, 2026");
    expect(within(facts).getByText("Examples").nextElementSibling).toHaveTextContent("18,432 resolved backtested signals");
    expect(within(facts).getByTestId("model-ships")).toHaveTextContent(
      "Scores new signals: yes — it ships only if it beat the strength score on the held-out years.",
    );

    const heldOut = within(section).getByTestId("held-out");
    expect(within(heldOut).getByTestId("target-beats-strength")).toHaveTextContent("Skill over strength > 0: met (0.0749)");
    expect(within(heldOut).getByTestId("target-beats-strength")).toHaveTextContent("Met");
    expect(heldOut).toHaveTextContent("The model beat the strength score on these years.");
    const table = within(heldOut).getByRole("table", {
      name: "Held-out years 2023–2025: 5,210 backtested signals, base rate 51.2% won",
    });
    expect(bodyRows(table)).toEqual([
      ["Brier scorelower is better", "0.2311", "0.2498"],
      ["Skill vs base rateabove 0 beats always forecasting the base rate", "0.0751", "0.0002"],
      ["ECE (equal-width)lower is better", "0.0214", "0.0967"],
    ]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Figure", "Model", "Strength score"]);
  });

  it("a model that did not beat the strength score says it missed, in words, and does not score new signals", async () => {
    const model = makePublishedModel({
      ships: false,
      evaluation: makeHeldOutEvaluation({
        beatsStrength: false,
        skillOverStrength: -0.0213,
        model: { ...makeHeldOutEvaluation().model, brier: 0.2551, skill: null },
      }),
    });
    const section = await modelSection(makeTrackRecordSummary({ model }));
    expect(within(section).getByTestId("model-ships")).toHaveTextContent("Scores new signals: no");
    const verdict = within(section).getByTestId("target-beats-strength");
    expect(verdict).toHaveTextContent("Skill over strength > 0: missed (-0.0213)");
    expect(verdict).toHaveTextContent("Missed");
    expect(within(section).getByTestId("held-out")).toHaveTextContent(
      "The model did not beat the strength score on these years, so it does not score new signals.",
    );
    const table = within(section).getByRole("table", { name: /^Held-out years/ });
    expect(bodyRows(table)[0]).toEqual(["Brier scorelower is better", "0.2551", "0.2498"]);
    expect(bodyRows(table)[1].slice(1)).toEqual(["—", "0.0002"]);
  });

  it("a model without a held-out evaluation says so", async () => {
    const section = await modelSection(makeTrackRecordSummary({ model: makePublishedModel({ ships: false, evaluation: null }) }));
    expect(within(section).getByTestId("no-evaluation")).toHaveTextContent("This model has no held-out evaluation");
    expect(within(section).queryByTestId("held-out")).not.toBeInTheDocument();
  });

  it("says when no model has been trained yet, and gives the live check's n only under 30", async () => {
    const section = await modelSection(
      makeTrackRecordSummary({ model: null, modelLive: { n: 0, wins: 0, firstDay: null, lastDay: null, figures: null } }),
    );
    expect(within(section).getByTestId("no-model")).toHaveTextContent("No model has been trained yet");
    expect(within(section).queryByTestId("model-facts")).not.toBeInTheDocument();
    expect(within(section).queryByRole("table")).not.toBeInTheDocument();
    expect(within(section).getByRole("heading", { level: 3, name: "Model probability at issue" })).toBeInTheDocument();
    expect(within(section).getByTestId("group-sample")).toHaveTextContent("0 resolved live signals.");
    expect(within(section).getByTestId("too-few")).toHaveTextContent(
      "A figure needs at least 30 resolved live signals, and this group has 0 so far, so no figure is shown yet.",
    );
  });

  it("a live check under 30 resolved signals shows its n and no figure", async () => {
    const section = await modelSection(
      makeTrackRecordSummary({ modelLive: { n: 12, wins: 7, firstDay: "2026-11-10", lastDay: "2026-11-23", figures: null } }),
    );
    expect(within(section).getByTestId("group-sample")).toHaveTextContent(
      "12 resolved live signals, resolved Nov 10, 2026 – Nov 23, 2026.",
    );
    expect(within(section).getByTestId("too-few")).toHaveTextContent("this group has 12 so far");
    expect(within(section).queryByRole("img")).not.toBeInTheDocument();
    expect(within(section).queryByTestId("target-ece")).not.toBeInTheDocument();
  });

  it("checks the model's probability at issue against live outcomes with the calibration view", async () => {
    const section = await modelSection();
    expect(within(section).getByTestId("group-sample")).toHaveTextContent(
      "41 resolved live signals, resolved Nov 2, 2026 – Nov 23, 2026; 24 won.",
    );
    expect(within(section).getByTestId("target-ece")).toHaveTextContent("Calibration target ECE ≤ 0.05: met (0.0462)");
    expect(within(section).getByTestId("target-skill")).toHaveTextContent("Skill target > 0: met (0.0921)");
    const diagram = within(section).getByRole("img", { name: "Reliability diagram, Model probability at issue, equal-width bins" });
    expect(diagram).toHaveTextContent("Mean forecast (model probability)");
  });
});
