import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PortfolioPosition } from "@/lib/api/models";
import { makePortfolioPosition, makePortfolioPositions, makePositionDetail } from "@/test/portfolio-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { AutomatedPositionsTable } from "./automated-positions-table";

afterEach(() => vi.unstubAllGlobals());

function api(positions: PortfolioPosition[]) {
  return mockFetch((url) => {
    if (url === "/api/portfolio/positions") return jsonResponse(positions);
    if (url.startsWith("/api/portfolio/position/")) return jsonResponse(makePositionDetail({ id: url.split("/").pop() }));
    return problem(404, "Not Found");
  });
}

const rows = () => screen.getAllByTestId("position-row");

describe("AutomatedPositionsTable", () => {
  it("shows 'No positions found' when there are none", async () => {
    api([]);
    renderWithProviders(<AutomatedPositionsTable />);
    expect(await screen.findByText("No positions found")).toBeInTheDocument();
  });

  it("says 'Failed to fetch positions' when they cannot be loaded", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<AutomatedPositionsTable />);
    expect(await screen.findByText("Failed to fetch positions")).toBeInTheDocument();
  });

  it("has the Symbol to Status columns and Actions, a minimum width of 800 px, and the status upper-cased", async () => {
    api([
      makePortfolioPosition(),
      makePortfolioPosition({ status: "closed", signal: { type: "PUT", symbol: "MSFT", companyName: "Microsoft", strikePrice: 400 } }),
    ]);
    renderWithProviders(<AutomatedPositionsTable />);
    const table = await screen.findByRole("table");
    expect(table.className).toContain("min-w-[800px]");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Symbol", "Company", "Type", "Strike", "Quantity", "Entry Price", "Current Value", "P&L", "Days Held", "Status", "Actions"]);
    const [open, closed] = rows();
    for (const text of ["AAPL", "Apple Inc.", "CALL", "$250.00", "2", "$3.20", "$730.00", "+$90.00", "+14.06%", "21"]) {
      expect(open).toHaveTextContent(text);
    }
    expect(within(open).getByText("OPEN").className).toMatch(/text-positive-strong/);
    expect(within(closed).getByText("CLOSED").className).toMatch(/text-muted-foreground/);
    expect(closed.className).toMatch(/text-muted-foreground/);
  });

  it("shows 10 positions per page with numbered pages", async () => {
    api(makePortfolioPositions(23));
    renderWithProviders(<AutomatedPositionsTable />);
    await screen.findByRole("table");
    expect(rows()).toHaveLength(10);
    expect(screen.getByText("Showing 1 to 10 of 23 positions")).toBeInTheDocument();
    const pages = screen.getByRole("navigation", { name: "Automated positions pages" });
    const user = userEvent.setup();
    await user.click(within(pages).getByRole("button", { name: "Page 3" }));
    expect(rows()).toHaveLength(3);
    expect(rows()[0]).toHaveTextContent("SYM21");
    expect(screen.getByText("Showing 21 to 23 of 23 positions")).toBeInTheDocument();
    expect(within(pages).getByRole("button", { name: "Next" })).toBeDisabled();
  });

  it("shows no page buttons with a single page", async () => {
    api(makePortfolioPositions(10));
    renderWithProviders(<AutomatedPositionsTable />);
    await screen.findByRole("table");
    expect(rows()).toHaveLength(10);
    expect(screen.queryByRole("navigation", { name: "Automated positions pages" })).not.toBeInTheDocument();
  });

  it("opens the position's details from the row and from its button", async () => {
    const [first] = makePortfolioPositions(2);
    const fetchMock = api([first]);
    renderWithProviders(<AutomatedPositionsTable />);
    const user = userEvent.setup();
    await user.click(await screen.findByText("Company 1"));
    expect(await screen.findByTestId("position-detail")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === `/api/portfolio/position/${first.id}`)).toBe(true);
    await user.keyboard("{Escape}");
    await user.click(screen.getByRole("button", { name: "View SYM1 position" }));
    expect(await screen.findByTestId("position-detail")).toBeInTheDocument();
  });
});
