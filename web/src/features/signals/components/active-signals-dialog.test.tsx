import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useActiveSignalCount } from "../hooks/use-active-signal-count";
import { NotificationBell } from "./active-signals-dialog";

vi.mock("../hooks/use-active-signal-count", () => ({ useActiveSignalCount: vi.fn(() => 0) }));
const countMock = vi.mocked(useActiveSignalCount);

beforeEach(() => countMock.mockReturnValue(0));

describe("NotificationBell", () => {
  it("shows no count badge at zero and lists no active signals", async () => {
    render(<NotificationBell />);
    expect(screen.queryByTestId("notification-count")).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Notifications: 0 active signals" }));
    expect(await screen.findByText("No active signals")).toBeInTheDocument();
  });

  it("shows the count, and 9+ above 9", () => {
    countMock.mockReturnValue(3);
    const { rerender } = render(<NotificationBell />);
    expect(screen.getByTestId("notification-count")).toHaveTextContent("3");
    countMock.mockReturnValue(12);
    rerender(<NotificationBell />);
    expect(screen.getByTestId("notification-count")).toHaveTextContent("9+");
  });
});
