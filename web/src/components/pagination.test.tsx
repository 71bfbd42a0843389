import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Pagination } from "./pagination";

function pager(page: number, pageCount: number, total: number, pageSize = 10) {
  return {
    page,
    pageCount,
    total,
    from: total === 0 ? 0 : (page - 1) * pageSize + 1,
    to: Math.min(page * pageSize, total),
    setPage: vi.fn(),
  };
}

describe("Pagination", () => {
  it("says which items are shown", () => {
    render(<Pagination pager={pager(2, 3, 25)} noun="signals" label="Signals pages" />);
    expect(screen.getByText("Showing 11 to 20 of 25 signals")).toBeInTheDocument();
  });

  it("shows nothing when there is nothing to count", () => {
    const { container } = render(<Pagination pager={pager(1, 1, 0)} noun="signals" label="Signals pages" />);
    expect(container).toBeEmptyDOMElement();
  });

  it("has no page buttons with a single page", () => {
    render(<Pagination pager={pager(1, 1, 4)} noun="trades" label="Trades pages" />);
    expect(screen.getByText("Showing 1 to 4 of 4 trades")).toBeInTheDocument();
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
  });

  it("moves to the previous, next and a numbered page", async () => {
    const p = pager(5, 10, 100);
    render(<Pagination pager={p} noun="positions" label="Positions pages" />);
    const nav = screen.getByRole("navigation", { name: "Positions pages" });
    const user = userEvent.setup();
    await user.click(within(nav).getByRole("button", { name: "Previous" }));
    await user.click(within(nav).getByRole("button", { name: "Next" }));
    await user.click(within(nav).getByRole("button", { name: "Page 10" }));
    expect(p.setPage.mock.calls).toEqual([[4], [6], [10]]);
    expect(within(nav).getByRole("button", { name: "Page 5" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getAllByTestId("page-gap")).toHaveLength(2);
  });

  it("disables Previous on the first page and Next on the last", () => {
    const { rerender } = render(<Pagination pager={pager(1, 3, 30)} noun="signals" label="Signals pages" />);
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next" })).toBeEnabled();
    rerender(<Pagination pager={pager(3, 3, 30)} noun="signals" label="Signals pages" />);
    expect(screen.getByRole("button", { name: "Previous" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
  });
});
