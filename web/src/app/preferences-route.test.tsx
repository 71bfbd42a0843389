import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { jsonResponse, makeUser, mockFetch, renderWithProviders } from "@/test/utils";
import PreferencesRoute from "./routes/preferences";

afterEach(() => vi.unstubAllGlobals());

const meCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([url]) => String(url) === "/api/auth/me");

describe("/preferences", () => {
  it("shows a spinner while the current user loads", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<PreferencesRoute />, { route: "/preferences" });
    expect(screen.getByRole("heading", { level: 1, name: "Investment Preferences" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Loading your preferences");
    expect(screen.queryByRole("form", { name: "Investment preferences" })).not.toBeInTheDocument();
  });

  it("loads the stored values, saves the edits, then refetches the user and the signals", async () => {
    let stored: User = makeUser({
      investmentCapital: 1000,
      maxPositionSize: 100,
      riskTolerance: "medium",
      preferredStrategies: "Momentum,Breakout",
    });
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/auth/me") return jsonResponse(stored);
      if (url === "/api/user/preferences" && init.method === "PATCH") {
        stored = { ...stored, ...(JSON.parse(String(init.body)) as Partial<User>) };
        return jsonResponse(stored);
      }
      return jsonResponse({});
    });
    const { queryClient } = renderWithProviders(<PreferencesRoute />, { route: "/preferences" });
    const signalsKey = [...queryKeys.signals.all(), "?limit=50"];
    queryClient.setQueryData(signalsKey, { signals: [], nextCursor: null });

    const capital = await screen.findByLabelText("Investment capital (USD)");
    expect(screen.getByRole("form", { name: "Investment preferences" })).toBeInTheDocument();
    expect(capital).toHaveValue(1000);
    expect(screen.getByLabelText("Max position size (USD)")).toHaveValue(100);
    expect(screen.getByLabelText("Risk tolerance")).toHaveDisplayValue("Moderate");
    expect(screen.getByRole("checkbox", { name: "Momentum" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Breakout" })).toBeChecked();
    expect(meCalls(fetchMock)).toHaveLength(1);

    const events = userEvent.setup();
    await events.clear(capital);
    await events.type(capital, "5000");
    await events.click(screen.getByRole("checkbox", { name: "Mean Reversion" }));
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));

    expect(await screen.findByText("Preferences Updated")).toBeInTheDocument();
    expect(stored).toMatchObject({
      investmentCapital: 5000,
      maxPositionSize: 100,
      riskTolerance: "medium",
      preferredStrategies: "Momentum,Mean Reversion,Breakout",
    });
    await waitFor(() => expect(meCalls(fetchMock)).toHaveLength(2));
    expect(queryClient.getQueryState(signalsKey)?.isInvalidated).toBe(true);
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveValue(5000);
    expect(screen.getByRole("checkbox", { name: "Mean Reversion" })).toBeChecked();
  });
});
