import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Calendar } from "./calendar";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 23, 12, 0)); // Monday, November 23, 2026
});
afterEach(() => vi.useRealTimers());

function Harness({ min }: { min?: string }) {
  const [value, setValue] = useState("2026-11-23");
  return (
    <>
      <Calendar value={value} onSelect={setValue} min={min} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe("Calendar", () => {
  it("disables the days before `min` and marks today", () => {
    render(<Harness min="2026-11-23" />);
    expect(screen.getByRole("grid", { name: "November 2026" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sunday, November 22, 2026" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Sunday, November 1, 2026" })).toBeDisabled();
    const today = screen.getByRole("button", { name: "Monday, November 23, 2026" });
    expect(today).toBeEnabled();
    expect(today).toHaveAttribute("aria-current", "date");
    expect(today.closest("td")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("button", { name: "Tuesday, November 24, 2026" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Previous month" })).toBeDisabled();
  });

  it("picks a date with the mouse and moves between months", async () => {
    const user = userEvent.setup();
    render(<Harness min="2026-11-23" />);
    await user.click(screen.getByRole("button", { name: "Next month" }));
    expect(screen.getByRole("grid", { name: "December 2026" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Friday, December 18, 2026" }));
    expect(screen.getByTestId("value")).toHaveTextContent("2026-12-18");
  });

  it("moves with the keyboard, never onto a disabled date", async () => {
    const user = userEvent.setup();
    render(<Harness min="2026-11-23" />);
    await user.tab();
    await user.tab();
    expect(screen.getByRole("button", { name: "Monday, November 23, 2026" })).toHaveFocus();
    // Only one day is in the tab order.
    expect(screen.getAllByRole("button").filter((b) => b.dataset.date && b.tabIndex === 0)).toHaveLength(1);
    await user.keyboard("{ArrowLeft}");
    expect(screen.getByRole("button", { name: "Monday, November 23, 2026" })).toHaveFocus();
    await user.keyboard("{ArrowDown}{ArrowRight}");
    expect(screen.getByRole("button", { name: "Tuesday, December 1, 2026" })).toHaveFocus();
    expect(screen.getByRole("grid", { name: "December 2026" })).toBeInTheDocument();
    await user.keyboard("{PageDown}{Enter}");
    expect(screen.getByTestId("value")).toHaveTextContent("2027-01-01");
  });
});
