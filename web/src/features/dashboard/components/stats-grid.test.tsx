import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStats } from "@/test/fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { DashboardHeader } from "./dashboard-header";
import { changeText, StatsGrid } from "./stats-grid";

afterEach(() => vi.unstubAllGlobals());

function card(title: string) {
  const heading = screen.getByRole("heading", { name: title });
  return within(heading.closest<HTMLElement>('[data-testid="stat-card"]') as HTMLElement);
}

describe("StatsGrid", () => {
  it("shows the server's figures and change text, coloured by sign", async () => {
    mockFetch(() =>
      jsonResponse(
        makeStats({
          changes: {
            activeSignals: { value: 12, label: "vs yesterday", unit: "percent" },
            winRate: { value: 2.3, label: "this week", unit: "points" },
            avgConfidence: { value: -1.2, label: "from last week", unit: "points" },
            portfolioValue: { value: null, label: "today", unit: "percent" },
          },
        }),
      ),
    );
    renderWithProviders(<StatsGrid />);
    expect(await screen.findByText("12")).toBeInTheDocument();
    expect(card("Active Signals").getByTestId("stat-change")).toHaveTextContent("+12.0%");
    expect(card("Active Signals").getByTestId("stat-change")).toHaveClass("text-positive-strong");
    expect(card("Active Signals").getByText("vs yesterday")).toBeInTheDocument();
    expect(card("Win Rate").getByText("64.3%")).toBeInTheDocument();
    expect(card("Win Rate").getByTestId("stat-change")).toHaveTextContent("+2.3 pts");
    // The average strength is a score out of 100, not a percentage; its change is in points.
    expect(card("Avg Strength").getByText("72/100")).toBeInTheDocument();
    expect(card("Avg Strength").queryByText("71.5%")).not.toBeInTheDocument();
    expect(card("Avg Strength").getByTestId("stat-change")).toHaveTextContent("-1.2 pts");
    expect(card("Avg Strength").getByTestId("stat-change")).toHaveClass("text-destructive-strong");
    expect(screen.queryByRole("heading", { name: "Avg Confidence" })).not.toBeInTheDocument();
    expect(card("Portfolio Value").getByText("$10,250.50")).toBeInTheDocument();
  });

  it("shows '—' for a change with no earlier snapshot, and for a missing win rate", async () => {
    mockFetch(() => jsonResponse(makeStats({ winRate: null })));
    renderWithProviders(<StatsGrid />);
    await screen.findByText("12");
    expect(card("Portfolio Value").getByTestId("stat-change")).toHaveTextContent(/^—$/);
    expect(card("Portfolio Value").getByTestId("stat-change")).toHaveClass("text-muted-foreground");
    expect(card("Win Rate").getByText("—")).toBeInTheDocument();
    expect(changeText({ value: null, label: "today", unit: "percent" })).toEqual({ change: "—", changeType: "neutral" });
    expect(changeText({ value: 0, label: "today", unit: "percent" })).toEqual({ change: "0.0%", changeType: "neutral" });
  });

  it("says when the stats cannot be fetched", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<StatsGrid />);
    expect(await screen.findByText("Failed to fetch stats")).toBeInTheDocument();
    expect(screen.getAllByText("—").length).toBeGreaterThanOrEqual(8);
  });
});

describe("Update Stats", () => {
  it("recalculates and toasts, or says it failed", async () => {
    let ok = true;
    mockFetch(() => (ok ? jsonResponse(makeStats()) : problem(500, "Internal Server Error")));
    renderWithProviders(<DashboardHeader name="Ada" updatedAt={Date.now()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Update Stats" }));
    expect(await screen.findByText("Stats Updated")).toBeInTheDocument();
    expect(screen.getByText("Portfolio statistics have been recalculated")).toBeInTheDocument();
    ok = false;
    await user.click(screen.getByRole("button", { name: "Update Stats" }));
    expect(await screen.findByText("Failed to update statistics")).toBeInTheDocument();
  });
});
