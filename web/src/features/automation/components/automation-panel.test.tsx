import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/query-keys";
import { makeAutomationStatus } from "@/test/fixtures";
import { makeStandingOrder } from "@/test/order-fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { AutomationPanel } from "./automation-panel";

afterEach(() => vi.unstubAllGlobals());

describe("AutomationPanel", () => {
  it("while running: Stop enabled, Start disabled, Manual Update always", async () => {
    mockFetch(() => jsonResponse(makeAutomationStatus({ isRunning: true })));
    renderWithProviders(<AutomationPanel canControl />);
    expect(await screen.findByTestId("automation-state")).toHaveTextContent("Running");
    expect(screen.getByRole("button", { name: "Start" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Stop" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Manual Update" })).toBeEnabled();
    for (const label of ["Signal updates", "New signals", "Portfolio stats", "End of day", "Pre-market", "Weekend"]) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
  });

  it("while stopped: Start enabled, Stop disabled; starting shows the new state", async () => {
    mockFetch((url) => jsonResponse(makeAutomationStatus({ isRunning: url === "/api/automation/start" })));
    renderWithProviders(<AutomationPanel canControl />);
    expect(await screen.findByTestId("automation-state")).toHaveTextContent("Stopped");
    expect(screen.getByRole("button", { name: "Stop" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Start" })).toBeEnabled();
    await userEvent.setup().click(screen.getByRole("button", { name: "Start" }));
    expect(await screen.findByText("Automation Started")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("automation-state")).toHaveTextContent("Running"));
    expect(screen.getByRole("button", { name: "Start" })).toBeDisabled();
  });

  it("stops, and toasts 'Failed to stop automation service' on a 403 and 'Failed to trigger manual update' on a failed update", async () => {
    let forbidden = false;
    mockFetch((url) => {
      if (url === "/api/automation/stop") {
        return forbidden
          ? problem(403, "Forbidden", "Only administrators can stop automation.")
          : jsonResponse(makeAutomationStatus({ isRunning: false }));
      }
      if (url === "/api/automation/update") return problem(429, "Too Many Requests");
      return jsonResponse(makeAutomationStatus({ isRunning: true }));
    });
    const user = userEvent.setup();
    const first = renderWithProviders(<AutomationPanel canControl />);
    await user.click(await screen.findByRole("button", { name: "Stop" }));
    expect(await screen.findByText("Automation Stopped")).toBeInTheDocument();
    expect(screen.getByText("Automatic updates have been paused")).toBeInTheDocument();
    first.unmount();

    forbidden = true;
    renderWithProviders(<AutomationPanel canControl />);
    await user.click(await screen.findByRole("button", { name: "Stop" }));
    expect(await screen.findByText("Failed to stop automation service")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Manual Update" }));
    expect(await screen.findByText("Failed to trigger manual update")).toBeInTheDocument();
  });

  it("shows anyone but an administrator the status and Manual Update, without Start, Stop or the orders' kill switch", async () => {
    for (const isRunning of [true, false]) {
      mockFetch(() => jsonResponse(makeAutomationStatus({ isRunning })));
      const { unmount } = renderWithProviders(<AutomationPanel />);
      expect(await screen.findByTestId("automation-state")).toHaveTextContent(isRunning ? "Running" : "Stopped");
      expect(screen.queryByRole("button", { name: "Start" })).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Stop" })).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Stop all orders" })).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Resume orders" })).not.toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Manual Update" })).toBeEnabled();
      unmount();
    }
  });

  it("runs a manual update", async () => {
    mockFetch(() => jsonResponse(makeAutomationStatus({ isRunning: false })));
    renderWithProviders(<AutomationPanel canControl />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Manual Update" }));
    expect(await screen.findByText("Manual Update Complete")).toBeInTheDocument();
  });

  it("says when starting is refused", async () => {
    mockFetch((url) =>
      url === "/api/automation/start" ? problem(403, "Forbidden") : jsonResponse(makeAutomationStatus({ isRunning: false })),
    );
    renderWithProviders(<AutomationPanel canControl />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Start" }));
    expect(await screen.findByText("Failed to start automation service")).toBeInTheDocument();
  });

  it("lets an administrator stop every account's orders, says so, and reads the orders again", async () => {
    let halted = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/automation/orders" && init.method === "PUT") {
        halted = (JSON.parse(String(init.body)) as { halted: boolean }).halted;
      }
      return jsonResponse(makeAutomationStatus({ isRunning: true, ordersHalted: halted }));
    });
    const { queryClient } = renderWithProviders(<AutomationPanel canControl />);
    queryClient.setQueryData(queryKeys.orders(), [makeStandingOrder()]);
    const user = userEvent.setup();

    expect(await screen.findByTestId("automation-state")).toHaveTextContent("Running");
    expect(screen.queryByTestId("orders-halted")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Stop all orders" }));

    expect(await screen.findByText("Orders Stopped")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/automation/orders")).toEqual({ halted: true });
    expect(await screen.findByTestId("orders-halted")).toHaveTextContent("Orders are stopped for every account by the administrator.");
    expect(queryClient.getQueryState(queryKeys.orders())?.isInvalidated).toBe(true);
    // The service itself keeps running; only orders stop.
    expect(screen.getByTestId("automation-state")).toHaveTextContent("Running");

    await user.click(screen.getByRole("button", { name: "Resume orders" }));
    expect(await screen.findByText("Orders Resumed")).toBeInTheDocument();
    const puts = fetchMock.mock.calls.filter(([url]) => String(url) === "/api/automation/orders").map(([, init]) => String(init?.body));
    expect(puts).toEqual(['{"halted":true}', '{"halted":false}']);
    await waitFor(() => expect(screen.queryByTestId("orders-halted")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Stop all orders" })).toBeEnabled();
  });

  it("tells everyone that orders are stopped while the administrator's kill switch is on", async () => {
    mockFetch(() => jsonResponse(makeAutomationStatus({ ordersHalted: true })));
    renderWithProviders(<AutomationPanel />);
    expect(await screen.findByText("Orders are stopped for every account by the administrator.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Resume orders" })).not.toBeInTheDocument();
  });

  it("says when stopping the orders is refused (403)", async () => {
    mockFetch((url) =>
      url === "/api/automation/orders" ? problem(403, "Forbidden") : jsonResponse(makeAutomationStatus({ ordersHalted: false })),
    );
    renderWithProviders(<AutomationPanel canControl />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Stop all orders" }));
    expect(await screen.findByText("Failed to stop orders")).toBeInTheDocument();
    expect(screen.queryByTestId("orders-halted")).not.toBeInTheDocument();
  });
});
