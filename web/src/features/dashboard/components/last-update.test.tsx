import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LastUpdate } from "./last-update";

afterEach(() => vi.useRealTimers());

describe("LastUpdate", () => {
  it("says 'Just now', then counts minutes as time passes", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-03-03T15:00:00Z"));
    render(<LastUpdate updatedAt={Date.now()} />);
    expect(screen.getByText("Just now")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(3 * 60_000);
    });
    expect(screen.getByText("3 min ago")).toBeInTheDocument();
  });
});
