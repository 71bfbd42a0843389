import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { includesCustomStrategies } from "@/features/auth/lib/plan";
import { OverallResults } from "@/features/backtest/components/overall-results";
import type { CustomStrategyInput, CustomStrategyView, OverallBacktest, Preview } from "@/lib/api/models";
import { makeCustomStrategy, makeRuleLanguage } from "@/test/fixtures";
import { makeOverallBacktest } from "@/test/portfolio-fixtures";
import { jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { TEMPLATES } from "../lib/templates";
import { CustomStrategiesPage } from "./custom-strategies-page";

afterEach(() => vi.unstubAllGlobals());

const OVERSOLD = TEMPLATES[0].document;

function makeView(overrides: Partial<CustomStrategyView> = {}): CustomStrategyView {
  return makeCustomStrategy({ document: OVERSOLD, ...overrides });
}

function makePreview(): Preview {
  return {
    firing: 1,
    modelVersion: null,
    notEnoughHistory: ["NEWCO"],
    symbols: [
      {
        symbol: "NVDA",
        asOf: "2026-11-27",
        triggered: true,
        confidence: 58,
        conditions: [
          { text: "RSI(14) 28.4 below 30.0", holds: true },
          { text: "close 146.55 crossed above lower Bollinger band 145.10", holds: true },
        ],
        proposal: {
          signalType: "CALL",
          strikePrice: 150,
          expirationDate: "2026-12-18",
          entryPrice: 9.08,
          targetPrice: 14.53,
          stopLoss: 5.45,
          reasoning: "NVDA Custom CALL: …",
          modelProbability: null,
          clearsThreshold: true,
        },
      },
      {
        symbol: "CVX",
        asOf: "2026-11-27",
        triggered: false,
        confidence: 27,
        conditions: [
          { text: "RSI(14) 28.4 below 30.0", holds: true },
          { text: "close 108.27 did not cross above lower Bollinger band 104.32", holds: false },
        ],
        proposal: null,
      },
      {
        symbol: "AAPL",
        asOf: "2026-11-27",
        triggered: false,
        confidence: 0,
        conditions: [
          { text: "RSI(14) 36.0 not below 30.0", holds: false },
          { text: "close 379.22 did not cross above lower Bollinger band 375.81", holds: false },
        ],
        proposal: null,
      },
    ],
  };
}

function makeCustomBacktest(): OverallBacktest {
  const base = makeOverallBacktest();
  return {
    ...base,
    totalTrades: 2,
    trades: base.trades.slice(0, 2).map((t, i) => ({ ...t, strategy: "Custom", outcome: i === 0 ? "time" : "target" })),
  };
}

type Api = {
  language?: () => Response;
  list?: CustomStrategyView[];
  preview?: () => Response;
  save?: (input: CustomStrategyInput, method: string) => Response;
  /** PUT …/{id}/active; by default the saved strategy, switched as asked. */
  active?: (id: string, active: boolean) => Response | Promise<Response>;
  backtest?: () => Response | Promise<Response>;
};

/** The server as the page sees it: the rule language, the saved list (kept up to date by saves and deletes), the preview, the backtest. */
function api({
  language = () => jsonResponse(makeRuleLanguage()),
  list = [],
  preview = () => jsonResponse(makePreview()),
  save,
  active,
  backtest = () => jsonResponse(makeCustomBacktest()),
}: Api = {}) {
  let saved = [...list];
  return mockFetch(async (url, init) => {
    const method = init.method ?? "GET";
    if (url === "/api/strategies/custom/language" && method === "GET") return language();
    if (url === "/api/strategies/custom" && method === "GET") return jsonResponse(saved);
    if (url === "/api/strategies/custom/preview" && method === "POST") return preview();
    const switched = /^\/api\/strategies\/custom\/([\w-]+)\/active$/.exec(url);
    if (switched && method === "PUT") {
      const body = JSON.parse(String(init.body)) as { active: boolean; automate?: boolean };
      const on = body.active;
      if (active) return active(switched[1], on);
      const current = saved.find((s) => s.id === switched[1]);
      if (!current) return problem(404, "Not Found");
      const view = { ...current, active: on, automate: on && (body.automate ?? false) };
      saved = saved.map((s) => (s.id === view.id ? view : s));
      return jsonResponse(view);
    }
    if (url.startsWith("/api/strategies/custom") && (method === "POST" || method === "PUT")) {
      const input = JSON.parse(String(init.body)) as CustomStrategyInput;
      if (save) return save(input, method);
      const id = method === "PUT" ? url.split("/").pop()! : "5f0c2a51-0000-4000-8000-0000000000aa";
      const view = makeView({ id, name: input.name, document: input.document, updatedAt: "2026-11-28T10:00:00Z" });
      saved = [...saved.filter((s) => s.id !== id), view];
      return jsonResponse(view, method === "POST" ? 201 : 200);
    }
    if (url.startsWith("/api/strategies/custom/") && method === "DELETE") {
      const id = url.split("/").pop();
      saved = saved.filter((s) => s.id !== id);
      return new Response(null, { status: 204 });
    }
    if (url === "/api/backtest" && method === "POST") return backtest();
    if (url === "/api/stock-prices") {
      return jsonResponse(
        ["AAPL", "MSFT", "NVDA"].map((symbol) => ({ symbol, companyName: symbol, currentPrice: 100, change: 0, changePercent: 0 })),
      );
    }
    return problem(404, "Not Found");
  });
}

const callsTo = (mock: ReturnType<typeof mockFetch>, url: string, method = "POST") =>
  mock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? "GET") === method);

/** The JSON body of the last `method` request to `url`. */
function lastBody(mock: ReturnType<typeof mockFetch>, url: string, method = "POST"): unknown {
  const call = callsTo(mock, url, method).at(-1);
  if (!call) throw new Error(`no ${method} ${url}`);
  return JSON.parse(String(call[1]?.body));
}

function renderPage({ unlocked = true, route = "/custom-strategies" } = {}) {
  return renderWithProviders(
    <CustomStrategiesPage unlocked={unlocked} backtestResults={(result) => <OverallResults result={result} />} />,
    { route },
  );
}

async function useTemplate(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.selectOptions(screen.getByLabelText("Start from a template"), label);
  await user.click(screen.getByRole("button", { name: "Use template" }));
}

describe("CustomStrategiesPage", () => {
  it("is locked on Pro, and still lists what was saved, read-only, with delete", async () => {
    const fetchMock = api({ list: [makeView()] });
    renderPage({ unlocked: includesCustomStrategies(makeUser({ subscriptionPlan: "pro" })) });
    const locked = screen.getByTestId("custom-strategies-locked");
    expect(within(locked).getByText("Premium")).toBeInTheDocument();
    expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
    const item = await screen.findByTestId("saved-strategy");
    expect(item).toHaveTextContent("Oversold bounce");
    expect(item).toHaveTextContent("at the money, 30+ days");
    expect(item).toHaveTextContent("Updated Nov 21, 2026");
    expect(within(item).queryByRole("button", { name: /Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Name")).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(item).getByRole("button", { name: "Delete Oversold bounce" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Delete strategy" }));
    expect(await screen.findByText("Strategy deleted.")).toBeInTheDocument();
    expect(await screen.findByText("No saved strategies")).toBeInTheDocument();
    expect(callsTo(fetchMock, "/api/strategies/custom/5f0c2a51-0000-4000-8000-000000000001", "DELETE")).toHaveLength(1);
    expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toEqual([]);
    // The locked page builds nothing: it does not ask for the rule language either.
    expect(callsTo(fetchMock, "/api/strategies/custom/language", "GET")).toEqual([]);
    expect(screen.getByTestId("saved-strategies")).toHaveTextContent("0 kept.");
  });

  it("switches a saved strategy's live signals on and off, waiting for the server's answer", async () => {
    let answer: ((r: Response) => void) | null = null;
    const fetchMock = api({
      list: [makeView()],
      active: (id, on) =>
        on
          ? new Promise<Response>((resolve) => (answer = resolve))
          : jsonResponse(makeView({ id, active: false, updatedAt: "2026-11-28T10:00:00Z" })),
    });
    renderPage();
    const user = userEvent.setup();
    const item = await screen.findByTestId("saved-strategy");
    const toggle = within(item).getByRole("switch", { name: "Live signals for Oversold bounce" });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription("Off. When on, signals from this rule appear in your Signals list, for you alone.");

    await user.click(toggle);
    const url = "/api/strategies/custom/5f0c2a51-0000-4000-8000-000000000001/active";
    expect(lastBody(fetchMock, url, "PUT")).toEqual({ active: true });
    // Waiting: the switch is held, still as the server last said.
    await waitFor(() => expect(toggle).toBeDisabled());
    expect(toggle).not.toBeChecked();
    expect(within(item).getByText("Saving…")).toBeInTheDocument();
    answer!(jsonResponse(makeView({ active: true, updatedAt: "2026-11-28T10:00:00Z" })));

    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeEnabled();
    expect(toggle).toHaveAccessibleDescription("Signals from this rule appear in your Signals list, for you alone.");
    // The list in the cache follows the answer: the date it shows is the server's.
    expect(item).toHaveTextContent("Updated Nov 28, 2026");

    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(lastBody(fetchMock, url, "PUT")).toEqual({ active: false });
    expect(callsTo(fetchMock, url, "PUT")).toHaveLength(2);
  });

  it("offers automation only while live signals are on, and sends it with them", async () => {
    const fetchMock = api({ list: [makeView()] });
    renderPage();
    const user = userEvent.setup();
    const item = await screen.findByTestId("saved-strategy");
    const automateName = "Open paper positions automatically for Oversold bounce";
    expect(within(item).queryByRole("switch", { name: automateName })).not.toBeInTheDocument();
    await user.click(within(item).getByRole("switch", { name: "Live signals for Oversold bounce" }));
    const automate = await within(item).findByRole("switch", { name: automateName });
    expect(automate).not.toBeChecked();
    await user.click(automate);
    await waitFor(() => expect(automate).toBeChecked());
    const url = "/api/strategies/custom/5f0c2a51-0000-4000-8000-000000000001/active";
    expect(lastBody(fetchMock, url, "PUT")).toEqual({ active: true, automate: true });
    expect(automate).toHaveAccessibleDescription(
      "Your automation opens paper positions from its signals, sized by your investment preferences.",
    );
    // Live signals off takes the automation with them.
    await user.click(within(item).getByRole("switch", { name: "Live signals for Oversold bounce" }));
    await waitFor(() => expect(within(item).queryByRole("switch", { name: automateName })).not.toBeInTheDocument());
    expect(lastBody(fetchMock, url, "PUT")).toEqual({ active: false });
  });

  it("says the server's refusal to switch live signals on in a toast, and leaves the switch off", async () => {
    const detail = "Live signals from custom strategies are part of the Premium plan.";
    api({ list: [makeView()], active: () => problem(403, "Forbidden", detail) });
    renderPage();
    const user = userEvent.setup();
    const toggle = await screen.findByRole("switch", { name: "Live signals for Oversold bounce" });
    await user.click(toggle);
    expect(await screen.findByText("Live signals not switched on")).toBeInTheDocument();
    expect(screen.getByText(detail)).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeEnabled();
  });

  it("outside Premium, lets live signals be switched off but not on", async () => {
    const fetchMock = api({ list: [makeView(), makeView({ id: "5f0c2a51-0000-4000-8000-000000000002", name: "Still on", active: true })] });
    renderPage({ unlocked: false });
    const user = userEvent.setup();
    const off = await screen.findByRole("switch", { name: "Live signals for Oversold bounce" });
    expect(off).toBeDisabled();
    expect(off).toHaveAccessibleDescription("Live signals are part of Premium.");
    const on = screen.getByRole("switch", { name: "Live signals for Still on" });
    expect(on).toBeChecked();
    expect(on).toHaveAccessibleDescription("On, but paused: live signals are part of Premium.");
    await user.click(on);
    await waitFor(() => expect(on).not.toBeChecked());
    expect(lastBody(fetchMock, "/api/strategies/custom/5f0c2a51-0000-4000-8000-000000000002/active", "PUT")).toEqual({ active: false });
    expect(on).toBeDisabled();
  });

  it("builds from the server's rule language: its labels, kinds and limits, asked again after a failure", async () => {
    let asked = 0;
    const fetchMock = api({
      language: () => {
        asked += 1;
        return asked === 1
          ? problem(503, "Service Unavailable", "Try again in a moment.")
          : jsonResponse(makeRuleLanguage({ maxGroup: 3 }));
      },
    });
    renderPage();
    // Failed: said in place of the builder, with a way to ask again.
    expect(await screen.findByText("Failed to load the strategy builder")).toBeInTheDocument();
    expect(screen.queryByLabelText("Name")).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Try again" }));

    expect(await screen.findByText("No saved strategies")).toBeInTheDocument();
    expect(screen.getByTestId("saved-strategies")).toHaveTextContent("0 of 20 kept.");
    const row = screen.getAllByTestId("condition")[0];
    const indicator = within(row).getByLabelText("Indicator");
    const headings = [...indicator.querySelectorAll("optgroup")].map((g) => g.label);
    expect(headings).toEqual(["Prices (dollars)", "Volume (shares)", "0–100 readings (points)", "MACD", "Volatility (percent)"]);
    expect(within(indicator).getByRole("option", { name: "Upper Bollinger band" })).toHaveValue("bollingerUpper");
    expect(within(indicator).getByRole("option", { name: "Prior 20-day average volume" })).toHaveValue("priorVolumeAverage");
    expect(within(indicator).getAllByRole("option")).toHaveLength(21);
    expect(within(row).getByLabelText("Bars ago (indicator)").querySelectorAll("option")).toHaveLength(11);
    await user.selectOptions(within(row).getByLabelText("Relation"), "crossesAbove");
    expect(within(row).getByLabelText("Bars ago (indicator)").querySelectorAll("option")).toHaveLength(10);
    // The server's limit on a group, not a number of the web's.
    expect(screen.getByText("1 of 3 in this group.")).toBeInTheDocument();
    expect(callsTo(fetchMock, "/api/strategies/custom/language", "GET")).toHaveLength(2);
  });

  it("asks before unsaved changes are lost to another strategy, a new one or a template", async () => {
    api({ list: [makeView({ name: "Quiet", document: TEMPLATES[3].document })] });
    renderPage();
    const user = userEvent.setup();
    await screen.findByRole("button", { name: /Edit Quiet/ });
    // Nothing to lose yet: a template replaces the blank rule at once.
    await useTemplate(user, "Trend pullback");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("Trend pullback");

    await user.clear(screen.getByLabelText("Stop loss"));
    await user.type(screen.getByLabelText("Stop loss"), "35");
    await user.click(screen.getByRole("button", { name: "New strategy" }));
    let dialog = screen.getByRole("alertdialog", { name: "Discard changes?" });
    expect(dialog).toHaveTextContent("Your changes to this strategy are not saved: a new strategy replaces them.");
    expect(within(dialog).getByRole("button", { name: "Keep editing" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Keep editing" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Stop loss")).toHaveValue(35);
    expect(screen.getByLabelText("Name")).toHaveValue("Trend pullback");

    await user.click(screen.getByRole("button", { name: /Edit Quiet/ }));
    dialog = screen.getByRole("alertdialog", { name: "Discard changes?" });
    expect(dialog).toHaveTextContent("Your changes to this strategy are not saved: opening “Quiet” replaces them.");
    await user.click(within(dialog).getByRole("button", { name: "Discard" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Editing “Quiet”" })).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("Quiet");

    // A saved strategy as it was saved: nothing to lose. Changed: a template asks first.
    await user.clear(screen.getByLabelText("Target gain"));
    await user.type(screen.getByLabelText("Target gain"), "45");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await useTemplate(user, "Oversold bounce");
    dialog = screen.getByRole("alertdialog", { name: "Discard changes?" });
    expect(dialog).toHaveTextContent("Your changes to “Quiet” are not saved: the “Oversold bounce” template replaces them.");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Target gain")).toHaveValue(45);
    await user.clear(screen.getByLabelText("Target gain"));
    await user.type(screen.getByLabelText("Target gain"), "40");
    expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "New strategy" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "New strategy" })).toBeInTheDocument();
  });

  it("starts from a template, and the Today panel says where it fires and how close the rest are", async () => {
    const fetchMock = api();
    renderPage();
    expect(await screen.findByText("No saved strategies")).toBeInTheDocument();
    const user = userEvent.setup();
    await useTemplate(user, "Oversold bounce");

    expect(screen.getByLabelText("Name")).toHaveValue("Oversold bounce");
    const rows = screen.getAllByTestId("condition");
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByLabelText("Indicator")).toHaveValue("rsi14");
    expect(within(rows[0]).getByLabelText("Relation")).toHaveValue("below");
    expect(within(rows[0]).getByLabelText("Number ($)".replace("$", "pts"))).toHaveValue(30);
    expect(within(rows[0]).getByText("In points, 0–100.")).toBeInTheDocument();
    expect(within(rows[1]).getByLabelText("Relation")).toHaveValue("crossesAbove");
    expect(within(rows[1]).getByLabelText("Other indicator")).toHaveValue("bollingerLower");
    expect(screen.getByRole("radio", { name: "CALL" })).toBeChecked();
    expect(screen.getByLabelText("Target gain")).toHaveValue(50);
    expect(screen.getByLabelText("Stop loss")).toHaveValue(30);
    expect(screen.getByLabelText("Close after (days)")).toHaveValue(10);

    await waitFor(() => expect(screen.getByTestId("firing-count")).toHaveTextContent("Fires on 1 of 3 stocks today"), { timeout: 3000 });
    // Asked once, after the edits stopped: the template's rule, not the blank one before it.
    expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(1);
    expect(lastBody(fetchMock, "/api/strategies/custom/preview")).toEqual({ document: OVERSOLD });
    expect(screen.getByTestId("firing-count")).toHaveAttribute("aria-live", "polite");

    const firing = screen.getByTestId("firing-symbol");
    expect(firing).toHaveTextContent("NVDA");
    expect(firing).toHaveTextContent("strength 58/100");
    expect(firing).toHaveTextContent("$150.00 strike");
    expect(firing).toHaveTextContent("Dec 18, 2026");
    expect(within(firing).getByText("Entry").nextSibling).toHaveTextContent("$9.08");
    expect(within(firing).getByText("Target").nextSibling).toHaveTextContent("$14.53");
    expect(within(firing).getByText("Stop").nextSibling).toHaveTextContent("$5.45");
    const closest = screen.getAllByTestId("closest-symbol");
    expect(closest.map((c) => c.querySelector("span")?.textContent)).toEqual(["CVX", "AAPL"]);
    const judged = within(closest[0]).getAllByTestId("judged-condition");
    expect(judged[0]).toHaveTextContent("Holds: RSI(14) 28.4 below 30.0");
    expect(judged[1]).toHaveTextContent("Does not hold: close 108.27 did not cross above");
    expect(screen.getByText(/without a year of history yet: NEWCO/)).toBeInTheDocument();
    // No minimum model score and no model: nothing about the model is said.
    expect(screen.queryByTestId("no-model-notice")).not.toBeInTheDocument();
    expect(within(firing).queryByTestId("model-line")).not.toBeInTheDocument();
  });

  it("warns when two kinds are compared, and asks nothing of the server until the rule is whole", async () => {
    const fetchMock = api();
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await useTemplate(user, "Trend pullback");
    await waitFor(() => expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(1), { timeout: 3000 });

    const row = screen.getAllByTestId("condition")[0];
    await user.selectOptions(within(row).getByLabelText("Other indicator"), "rsi14");
    expect(within(row).getByText("EMA(20) is a price, RSI(14) is a 0–100 reading: they cannot be compared.")).toBeInTheDocument();
    expect(within(row).getByLabelText("Other indicator")).toHaveAttribute("aria-invalid", "true");
    expect(await screen.findByTestId("preview-waiting", {}, { timeout: 3000 })).toHaveTextContent("Fix the marked fields");
    expect(screen.getByRole("button", { name: "Run backtest" })).toBeDisabled();
    expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(1);

    // Back to a like kind: the rule is whole again and judged again.
    await user.selectOptions(within(row).getByLabelText("Other indicator"), "sma20");
    await waitFor(() => expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(2), { timeout: 3000 });
    const body = JSON.parse(String(callsTo(fetchMock, "/api/strategies/custom/preview")[1][1]?.body)) as { document: typeof OVERSOLD };
    expect(body.document.entry).toMatchObject({ all: [{ compare: { right: { indicator: { name: "sma20" } } } }, {}] });
  });

  it("adds conditions and nested groups within the limits, and sends fractions for the exits", async () => {
    const fetchMock = api();
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    expect(screen.getAllByTestId("condition")).toHaveLength(1);
    const editor = screen.getByTestId("rule-editor");
    for (let i = 0; i < 6; i++) await user.click(within(editor).getByRole("button", { name: "Add condition" }));
    await user.click(within(editor).getByRole("button", { name: "Add group" }));
    expect(screen.getAllByTestId("condition")).toHaveLength(8);
    expect(within(editor).getByText("8 of 8 in this group (the most a group holds).")).toBeInTheDocument();
    const group = screen.getByTestId("condition-group");
    expect(within(group).getByRole("radio", { name: "Any of these" })).toBeChecked();
    // The top group is full: only the nested one can grow.
    expect(within(editor).getByRole("button", { name: "Add condition" })).toBeDisabled();
    expect(within(group).getByRole("button", { name: "Add condition to group 8" })).toBeEnabled();
    expect(within(group).getByRole("button", { name: "Add group to group 8" })).toBeEnabled();
    await user.click(within(group).getByRole("button", { name: "Add condition to group 8" }));
    expect(within(group).getAllByTestId("condition")).toHaveLength(2);
    expect(within(group).getAllByTestId("condition")[1]).toHaveTextContent("Condition 8.2");
    expect(screen.getByText("9 of 20 comparisons")).toBeInTheDocument();

    await user.click(screen.getByRole("radio", { name: "Any of these", checked: false }));
    await user.clear(screen.getByLabelText("Target gain"));
    await user.type(screen.getByLabelText("Target gain"), "120");
    await user.clear(screen.getByLabelText("Stop loss"));
    await user.type(screen.getByLabelText("Stop loss"), "45");
    await user.click(screen.getByRole("checkbox", { name: "Close after a number of days" }));
    await user.click(screen.getByRole("radio", { name: "Delta" }));
    await user.clear(screen.getByLabelText("Strike delta"));
    await user.type(screen.getByLabelText("Strike delta"), "0.3");
    await user.type(screen.getByLabelText("Name"), "Wide net");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));
    await screen.findByText("Strategy saved.");
    const saved = lastBody(fetchMock, "/api/strategies/custom") as CustomStrategyInput;
    expect(saved.name).toBe("Wide net");
    expect(saved.document.exits).toEqual({ targetGain: 1.2, stopLoss: 0.45, maxDays: null });
    expect(saved.document.strike).toEqual({ delta: 0.3 });
    expect(saved.document.entry).toMatchObject({ any: expect.arrayContaining([{ any: expect.any(Array) }]) });
    // Many rows and many keystrokes: more than the default 5 s on a busy machine.
  }, 30_000);

  it("nests groups at most 3 deep, and removes a group with what it holds", async () => {
    api();
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await user.click(screen.getByRole("button", { name: "Add group" }));
    await user.click(screen.getByRole("button", { name: "Add group to group 2" }));
    const groups = screen.getAllByTestId("condition-group");
    expect(groups).toHaveLength(2);
    expect(within(groups[0]).getAllByRole("radio", { name: "Any of these" })[0]).toBeChecked();
    expect(within(groups[1]).getByRole("radio", { name: "All of these" })).toBeChecked();
    expect(within(groups[1]).getByRole("button", { name: "Add condition to group 2.2" })).toBeEnabled();
    expect(within(groups[1]).queryByRole("button", { name: /Add group/ })).not.toBeInTheDocument();
    expect(screen.getByText("3 of 20 comparisons")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove group 2" }));
    expect(screen.queryByTestId("condition-group")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("condition")).toHaveLength(1);
    // The last condition of a group stays: a group needs one.
    expect(screen.getByRole("button", { name: "Remove condition 1" })).toBeDisabled();
  });

  it("saves a new strategy, lists it, then saves changes to it with PUT", async () => {
    const fetchMock = api();
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await useTemplate(user, "Breakdown on volume");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));
    expect(await screen.findByText("Strategy saved.")).toBeInTheDocument();
    expect(lastBody(fetchMock, "/api/strategies/custom")).toEqual({ name: "Breakdown on volume", document: TEMPLATES[2].document });
    const item = await screen.findByTestId("saved-strategy");
    expect(item).toHaveTextContent("Breakdown on volume");
    expect(within(item).getByRole("button", { name: /Edit Breakdown on volume/ })).toHaveAttribute("aria-current", "true");
    expect(screen.getByRole("heading", { name: "Editing “Breakdown on volume”" })).toBeInTheDocument();
    expect(screen.getByText("All changes saved.")).toBeInTheDocument();

    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Breakdown, wider stop");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsTo(fetchMock, "/api/strategies/custom/5f0c2a51-0000-4000-8000-0000000000aa", "PUT")).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId("saved-strategy")).toHaveTextContent("Breakdown, wider stop"));
    expect(callsTo(fetchMock, "/api/strategies/custom")).toHaveLength(1);
  });

  it("opens a saved strategy to edit it, and deletes it after confirming", async () => {
    const fetchMock = api({ list: [makeView({ name: "Quiet", document: TEMPLATES[3].document })] });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /Edit Quiet/ }));
    expect(screen.getByLabelText("Name")).toHaveValue("Quiet");
    expect(screen.getByRole("radio", { name: "STRADDLE" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Delta" })).toBeDisabled();
    expect(screen.getByLabelText("Strikes from the money")).toBeDisabled();
    expect(within(screen.getAllByTestId("condition")[0]).getByLabelText("Indicator")).toHaveValue("hvRank");

    await user.click(screen.getByRole("button", { name: "Delete Quiet" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("“Quiet” will be deleted for good.");
    await user.click(within(dialog).getByRole("button", { name: "Delete strategy" }));
    expect(await screen.findByText("Strategy deleted.")).toBeInTheDocument();
    expect(callsTo(fetchMock, "/api/strategies/custom/5f0c2a51-0000-4000-8000-000000000001", "DELETE")).toHaveLength(1);
    // The strategy it was editing is gone: a new one starts.
    expect(await screen.findByRole("heading", { name: "New strategy" })).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("");
  });

  it("opens the strategy the address names", async () => {
    api({ list: [makeView({ id: "abc", name: "From the link" })] });
    renderPage({ route: "/custom-strategies?id=abc" });
    expect(await screen.findByRole("heading", { name: "Editing “From the link”" })).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveValue("From the link");
  });

  it("shows the server's field errors next to the right controls", async () => {
    const fetchMock = api({
      save: () =>
        problem(422, "Invalid request", "Some fields are invalid.", [
          { field: "name", message: "No control characters" },
          { field: "document.entry.all[1].crosses.right", message: "Not a level the close can cross." },
          { field: "document.exits.stopLoss", message: "Must be between 0.05 (−5%) and 0.95 (−95%), got 0.99." },
          { field: "document.version", message: "This server reads version 1." },
        ]),
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await useTemplate(user, "Oversold bounce");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));

    expect(await screen.findByText("No control characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(screen.getByLabelText("Name")).toHaveFocus());
    const second = screen.getAllByTestId("condition")[1];
    expect(within(second).getByText("Not a level the close can cross.")).toBeInTheDocument();
    expect(within(second).getByLabelText("Other indicator")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Stop loss")).toHaveAccessibleDescription(/got 0.99/);
    // What no control shows is said beside the button.
    expect(screen.getByRole("alert")).toHaveTextContent("This server reads version 1.");
    expect(callsTo(fetchMock, "/api/strategies/custom")).toHaveLength(1);

    // A change to the name drops the server's marks on it (they were about what was sent).
    await user.type(screen.getByLabelText("Name"), "!");
    expect(screen.queryByText("No control characters")).not.toBeInTheDocument();
  });

  it("says a taken name beside the name, and asks for a name before saving", async () => {
    const fetchMock = api({
      save: () => problem(409, "Already taken", "This name is already taken", [{ field: "name", message: "This name is already taken" }]),
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));
    expect(screen.getByText("Please enter a name.")).toBeInTheDocument();
    expect(callsTo(fetchMock, "/api/strategies/custom")).toEqual([]);
    await user.type(screen.getByLabelText("Name"), "Taken");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));
    expect(await screen.findByText("This name is already taken")).toBeInTheDocument();
    expect(screen.getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
  });

  it("says in a toast that the most strategies are kept, not under the name", async () => {
    const cap = "You keep 20 custom strategies. Delete one to save another.";
    const fetchMock = api({ save: () => problem(409, "Conflict", cap, [{ field: "body", message: cap }]) });
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await useTemplate(user, "Oversold bounce");
    await user.click(screen.getByRole("button", { name: "Save strategy" }));
    expect(await screen.findByText("Not saved")).toBeInTheDocument();
    expect(screen.getByText(cap)).toBeInTheDocument();
    expect(callsTo(fetchMock, "/api/strategies/custom")).toHaveLength(1);
    // Said once, in the toast: the name is not marked and nothing is said beside the button.
    expect(screen.getByLabelText("Name")).not.toHaveAttribute("aria-invalid");
    expect(screen.getByText("15/60 characters, unique among your strategies.")).toBeInTheDocument();
    expect(screen.queryByText("Not saved: check the marked fields.")).not.toBeInTheDocument();
  });

  it("runs the backtest with progress, then shows its figures, equity curve and trades", async () => {
    let answer: (r: Response) => void = () => {};
    const fetchMock = api({ backtest: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await useTemplate(user, "Oversold bounce");
    await user.click(screen.getByRole("radio", { name: "Choose…" }));
    await user.click(await screen.findByRole("checkbox", { name: "NVDA" }));
    await user.click(screen.getByRole("checkbox", { name: "AAPL" }));
    await user.click(screen.getByRole("button", { name: "Run backtest" }));

    expect(await screen.findByRole("progressbar", { name: "Backtest running" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Running…" })).toBeDisabled();
    expect(lastBody(fetchMock, "/api/backtest")).toEqual({ customStrategy: OVERSOLD, symbols: ["AAPL", "NVDA"] });
    answer(jsonResponse(makeCustomBacktest()));

    const results = await screen.findByTestId("overall-results");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    const metric = (label: string) => within(results).getByText(label).nextSibling;
    expect(metric("Total Trades")).toHaveTextContent("2");
    expect(metric("Win Rate")).toHaveTextContent("66.7%");
    expect(metric("Total P&L")).toHaveTextContent("+$1,840.50");
    expect(metric("Max Drawdown")).toHaveTextContent("-8.34%");
    expect(within(results).getByTestId("equity-chart")).toBeInTheDocument();
    const trades = within(results).getAllByTestId("trade-row");
    expect(trades[0]).toHaveTextContent("Custom");
    expect(trades[0]).toHaveTextContent("Time limit");

    // An edit after the run: the result says it is of the rule as it was.
    await user.clear(screen.getByLabelText("Stop loss"));
    await user.type(screen.getByLabelText("Stop loss"), "40");
    expect(screen.getByText(/The rule has changed since this run/)).toBeInTheDocument();
  });

  it("places a refused backtest's errors on the rule, and says a plan refusal", async () => {
    api({
      backtest: () =>
        problem(422, "Invalid request", "Some fields are invalid.", [
          { field: "customStrategy.minDays", message: "Must be between 1 and 365 days, got 400." },
        ]),
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findByText("No saved strategies");
    await user.click(screen.getByRole("button", { name: "Run backtest" }));
    expect(await screen.findByText("Must be between 1 and 365 days, got 400.")).toBeInTheDocument();
    expect(screen.getByLabelText("Minimum days to expiration")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("The rule was refused: see the marked fields above.")).toBeInTheDocument();
  });

  it("says when the previews run out, with the wait", async () => {
    api({
      preview: () =>
        new Response(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429 }), {
          status: 429,
          headers: { "Content-Type": "application/problem+json", "Retry-After": "120" },
        }),
    });
    renderPage();
    expect(await screen.findByText("Too many previews this hour: try again in 2 min.", {}, { timeout: 3000 })).toBeInTheDocument();
  });

  describe("the monthly expiration", () => {
    const TREND = TEMPLATES[1].document;
    const MONTHLY_NAME = "Monthly expiration (third Friday)";

    it("adds monthly: true to the saved document while checked, and leaves the key out once unchecked", async () => {
      const fetchMock = api();
      renderPage();
      const user = userEvent.setup();
      await screen.findByText("No saved strategies");
      await useTemplate(user, "Trend pullback");
      const check = screen.getByRole("checkbox", { name: MONTHLY_NAME });
      expect(check).not.toBeChecked();
      expect(check).toHaveAccessibleDescription(
        "Opens the first monthly expiration at least this many days away, rather than the nearest weekly.",
      );

      await user.click(check);
      await user.click(screen.getByRole("button", { name: "Save strategy" }));
      expect(await screen.findByText("Strategy saved.")).toBeInTheDocument();
      const saved = lastBody(fetchMock, "/api/strategies/custom") as CustomStrategyInput;
      expect(saved).toEqual({ name: "Trend pullback", document: { ...TREND, monthly: true } });
      await waitFor(() => expect(screen.getByTestId("saved-strategy")).toHaveTextContent("1 strike out of the money, 21+ days, monthly"));

      await user.click(screen.getByRole("checkbox", { name: MONTHLY_NAME }));
      expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      const url = "/api/strategies/custom/5f0c2a51-0000-4000-8000-0000000000aa";
      await waitFor(() => expect(callsTo(fetchMock, url, "PUT")).toHaveLength(1));
      const changed = lastBody(fetchMock, url, "PUT") as CustomStrategyInput;
      // Left out, not false: the server's default.
      expect(changed.document).toEqual(TREND);
      expect(Object.keys(changed.document)).not.toContain("monthly");
      await waitFor(() => expect(screen.getByTestId("saved-strategy")).not.toHaveTextContent("monthly"));
      expect(screen.getByTestId("saved-strategy")).toHaveTextContent("1 strike out of the money, 21+ days ·");
    });

    it("opens a saved monthly strategy checked, summarised as monthly in the list", async () => {
      api({ list: [makeView({ name: "Monthly trend", document: { ...TREND, monthly: true } })] });
      renderPage();
      const user = userEvent.setup();
      const item = await screen.findByTestId("saved-strategy");
      expect(item).toHaveTextContent("1 strike out of the money, 21+ days, monthly · +");
      await user.click(within(item).getByRole("button", { name: /Edit Monthly trend/ }));
      expect(screen.getByRole("checkbox", { name: MONTHLY_NAME })).toBeChecked();
      expect(screen.getByText("All changes saved.")).toBeInTheDocument();
      expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
    });

    it("reads monthly: false as unchecked, the same as no key, with nothing unsaved", async () => {
      api({
        list: [
          makeView({ name: "Trend, false", document: { ...TREND, monthly: false } }),
          makeView({ id: "5f0c2a51-0000-4000-8000-000000000002", name: "Trend, absent", document: TREND }),
        ],
      });
      renderPage();
      const user = userEvent.setup();
      const items = await screen.findAllByTestId("saved-strategy");
      for (const item of items) expect(item).not.toHaveTextContent("monthly");

      await user.click(screen.getByRole("button", { name: /Edit Trend, false/ }));
      expect(screen.getByRole("checkbox", { name: MONTHLY_NAME })).not.toBeChecked();
      expect(screen.getByText("All changes saved.")).toBeInTheDocument();
      expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();
      // Checked and unchecked again: back to as saved.
      await user.click(screen.getByRole("checkbox", { name: MONTHLY_NAME }));
      expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
      await user.click(screen.getByRole("checkbox", { name: MONTHLY_NAME }));
      expect(screen.queryByText("Unsaved changes")).not.toBeInTheDocument();

      // Nothing to lose: the other opens without asking.
      await user.click(screen.getByRole("button", { name: /Edit Trend, absent/ }));
      expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
      expect(screen.getByRole("heading", { name: "Editing “Trend, absent”" })).toBeInTheDocument();
      expect(screen.getByRole("checkbox", { name: MONTHLY_NAME })).not.toBeChecked();
      expect(screen.getByText("All changes saved.")).toBeInTheDocument();
    });
  });

  describe("the model filter (a custom AI strategy)", () => {
    const AI_DOCUMENT = { ...OVERSOLD, minProbability: 0.6 };

    /** A preview scored by a model: NVDA clears a minimum of 60/100, MSFT fires below it. */
    function makeScoredPreview(modelVersion: string | null = "gbm-2026-11"): Preview {
      const base = makePreview();
      const [nvda, , aapl] = base.symbols;
      const scored = modelVersion !== null;
      return {
        ...base,
        firing: 2,
        modelVersion,
        symbols: [
          { ...nvda, proposal: { ...nvda.proposal!, modelProbability: scored ? 0.62 : null, clearsThreshold: scored } },
          {
            ...nvda,
            symbol: "MSFT",
            confidence: 55,
            proposal: { ...nvda.proposal!, strikePrice: 420, modelProbability: scored ? 0.48 : null, clearsThreshold: false },
          },
          aapl,
        ],
      };
    }

    it("adds the minimum score to the saved document as a fraction while checked, and leaves it out once unchecked", async () => {
      const fetchMock = api();
      renderPage();
      const user = userEvent.setup();
      await screen.findByText("No saved strategies");
      await useTemplate(user, "Oversold bounce");
      const check = screen.getByRole("checkbox", { name: "Require a minimum model score" });
      expect(check).not.toBeChecked();
      expect(check).toHaveAccessibleDescription(
        "A custom AI strategy: a setup becomes a signal only when the predictive model scores it at least this high. The model is calibrated on the house strategies' signals, so on your rule's setups its score is an estimate, shown out of 100 rather than as a chance. While no model ships, it issues nothing.",
      );
      expect(screen.queryByLabelText("Minimum model score (5–95)")).not.toBeInTheDocument();

      await user.click(check);
      const least = screen.getByLabelText("Minimum model score (5–95)");
      expect(least).toHaveValue(60);
      await user.clear(least);
      await user.type(least, "75");
      await user.click(screen.getByRole("button", { name: "Save strategy" }));
      expect(await screen.findByText("Strategy saved.")).toBeInTheDocument();
      const saved = lastBody(fetchMock, "/api/strategies/custom") as CustomStrategyInput;
      expect(saved).toEqual({ name: "Oversold bounce", document: { ...OVERSOLD, minProbability: 0.75 } });
      await waitFor(() => expect(screen.getByTestId("saved-strategy")).toHaveTextContent("model score ≥ 75"));

      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      expect(screen.queryByLabelText("Minimum model score (5–95)")).not.toBeInTheDocument();
      expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      const url = "/api/strategies/custom/5f0c2a51-0000-4000-8000-0000000000aa";
      await waitFor(() => expect(callsTo(fetchMock, url, "PUT")).toHaveLength(1));
      const changed = lastBody(fetchMock, url, "PUT") as CustomStrategyInput;
      // Left out, not null: the rule alone decides.
      expect(changed.document).toEqual(OVERSOLD);
      expect(Object.keys(changed.document)).not.toContain("minProbability");
      await waitFor(() => expect(screen.getByTestId("saved-strategy")).not.toHaveTextContent("model score ≥"));

      // Checked again: the last minimum comes back.
      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      expect(screen.getByLabelText("Minimum model score (5–95)")).toHaveValue(75);
    });

    it("blocks a minimum outside 5–95 or not whole with an error under it, and sends nothing", async () => {
      const fetchMock = api();
      renderPage();
      const user = userEvent.setup();
      await screen.findByText("No saved strategies");
      await useTemplate(user, "Oversold bounce");
      await waitFor(() => expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(1), { timeout: 3000 });
      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      const least = screen.getByLabelText("Minimum model score (5–95)");
      await user.clear(least);
      await user.type(least, "97");
      expect(least).toHaveAttribute("aria-invalid", "true");
      expect(least).toHaveAccessibleDescription("Must be a whole number from 5 to 95.");
      expect(await screen.findByTestId("preview-waiting", {}, { timeout: 3000 })).toHaveTextContent("Fix the marked fields");
      expect(screen.getByRole("button", { name: "Run backtest" })).toBeDisabled();

      await user.click(screen.getByRole("button", { name: "Save strategy" }));
      await waitFor(() => expect(least).toHaveFocus());
      expect(callsTo(fetchMock, "/api/strategies/custom")).toEqual([]);

      await user.clear(least);
      await user.type(least, "4");
      expect(least).toHaveAccessibleDescription("Must be a whole number from 5 to 95.");
      await user.clear(least);
      await user.type(least, "5");
      expect(least).not.toHaveAttribute("aria-invalid");
      expect(least).toHaveAccessibleDescription("Out of 100, a whole number from 5 to 95. Backtests run the rule alone, without it.");
      // Unchecked, a bad value is not sent, so it blocks nothing.
      await user.clear(least);
      await user.type(least, "99");
      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      await user.click(screen.getByRole("button", { name: "Save strategy" }));
      expect(await screen.findByText("Strategy saved.")).toBeInTheDocument();
      expect((lastBody(fetchMock, "/api/strategies/custom") as CustomStrategyInput).document).toEqual(OVERSOLD);
    });

    it("opens a saved custom AI strategy checked with its minimum score, summarised in the list", async () => {
      api({ list: [makeView({ name: "AI bounce", document: AI_DOCUMENT })] });
      renderPage();
      const user = userEvent.setup();
      const item = await screen.findByTestId("saved-strategy");
      expect(item).toHaveTextContent("at the money, 30+ days · +50% / −30%, closed after 10 days · model score ≥ 60");
      await user.click(within(item).getByRole("button", { name: /Edit AI bounce/ }));
      expect(screen.getByRole("checkbox", { name: "Require a minimum model score" })).toBeChecked();
      expect(screen.getByLabelText("Minimum model score (5–95)")).toHaveValue(60);
      expect(screen.getByText("All changes saved.")).toBeInTheDocument();
    });

    it("shows the server's refusal of the minimum under its control", async () => {
      api({
        save: () =>
          problem(422, "Invalid request", "Some fields are invalid.", [
            { field: "document.minProbability", message: "Must be between 0.05 and 0.95, got 0.97." },
          ]),
      });
      renderPage();
      const user = userEvent.setup();
      await screen.findByText("No saved strategies");
      await useTemplate(user, "Oversold bounce");
      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      await user.click(screen.getByRole("button", { name: "Save strategy" }));
      const least = screen.getByLabelText("Minimum model score (5–95)");
      await waitFor(() => expect(least).toHaveAttribute("aria-invalid", "true"));
      expect(least).toHaveAccessibleDescription("Must be between 0.05 and 0.95, got 0.97.");
      await waitFor(() => expect(least).toHaveFocus());
      expect(screen.getByRole("alert")).toHaveTextContent("Not saved: check the marked fields.");
    });

    it("shows the model's score out of 100 in the preview, never a percent, and marks a setup below the minimum", async () => {
      const fetchMock = api({
        list: [makeView({ name: "AI bounce", document: AI_DOCUMENT })],
        preview: () => jsonResponse(makeScoredPreview()),
      });
      renderPage({ route: "/custom-strategies?id=5f0c2a51-0000-4000-8000-000000000001" });
      await screen.findByRole("heading", { name: "Editing “AI bounce”" });
      await waitFor(() => expect(screen.getAllByTestId("firing-symbol")).toHaveLength(2), { timeout: 3000 });
      expect(lastBody(fetchMock, "/api/strategies/custom/preview")).toEqual({ document: AI_DOCUMENT });
      // Two fire; one clears the minimum, so one would be a signal.
      expect(screen.getByTestId("firing-count")).toHaveTextContent("Fires on 2 of 3 stocks today; 1 would issue a signal");
      expect(screen.queryByTestId("no-model-notice")).not.toBeInTheDocument();

      const [nvda, msft] = screen.getAllByTestId("firing-symbol");
      expect(nvda).toHaveTextContent("Model score 62/100");
      // Read out as a score, never as a chance or a percent.
      expect(within(nvda).getByTestId("model-score")).toHaveTextContent(/62 out of 100$/);
      expect(nvda).toHaveTextContent("Clears your minimum of 60/100");
      expect(within(nvda).queryByTestId("below-threshold")).not.toBeInTheDocument();
      expect(msft).toHaveTextContent("Model score 48/100");
      expect(within(msft).getByTestId("below-threshold")).toHaveTextContent("Below your minimum of 60/100: no signal");
      for (const item of [nvda, msft]) {
        expect(item).not.toHaveTextContent("%");
        expect(item).not.toHaveTextContent(/chance|probability/i);
      }

      // Without a minimum the score is still shown, with no mark.
      const user = userEvent.setup();
      await user.click(screen.getByRole("checkbox", { name: "Require a minimum model score" }));
      await waitFor(() => expect(callsTo(fetchMock, "/api/strategies/custom/preview")).toHaveLength(2), { timeout: 3000 });
      expect(lastBody(fetchMock, "/api/strategies/custom/preview")).toEqual({ document: OVERSOLD });
      await waitFor(() => expect(screen.getByTestId("firing-count")).toHaveTextContent(/^Fires on 2 of 3 stocks today$/));
      expect(screen.getAllByTestId("firing-symbol")[0]).toHaveTextContent("Model score 62/100");
      expect(screen.queryByTestId("below-threshold")).not.toBeInTheDocument();
      expect(screen.queryByText(/Clears your/)).not.toBeInTheDocument();
    });

    it("says once that no model ships, and that nothing would issue meanwhile", async () => {
      api({ list: [makeView({ name: "AI bounce", document: AI_DOCUMENT })], preview: () => jsonResponse(makeScoredPreview(null)) });
      renderPage({ route: "/custom-strategies?id=5f0c2a51-0000-4000-8000-000000000001" });
      const notice = await screen.findByTestId("no-model-notice", {}, { timeout: 3000 });
      expect(notice).toHaveTextContent("No model ships yet, so this strategy issues no signals until one does.");
      expect(screen.getAllByTestId("no-model-notice")).toHaveLength(1);
      expect(screen.getByTestId("firing-count")).toHaveTextContent("Fires on 2 of 3 stocks today; none would issue a signal");
      const firing = screen.getAllByTestId("firing-symbol");
      expect(firing).toHaveLength(2);
      for (const item of firing) {
        expect(item).not.toHaveTextContent("Model");
        expect(within(item).getByTestId("below-threshold")).toHaveTextContent("No model score yet: no signal");
      }
    });
  });
});
