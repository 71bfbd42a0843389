import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal } from "@/lib/api/models";
import { makeAnalysis, makeSignal } from "@/test/fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { SignalDetailDialog } from "./signal-detail-dialog";

afterEach(() => vi.unstubAllGlobals());

function api(post: () => Response = () => jsonResponse({ id: "m1" }, 201)) {
  return mockFetch((url, init) => {
    if (url === "/api/manual-positions" && init.method === "POST") return post();
    if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
    return jsonResponse([]);
  });
}

function renderDialog(signal: Signal) {
  return renderWithProviders(<SignalDetailDialog signal={signal} open onOpenChange={() => {}} />);
}

describe("SignalDetailDialog: facts", () => {
  it("shows the signal's strength as a score out of 100, not a confidence percentage", async () => {
    api();
    renderDialog(makeSignal({ confidence: 74 }));
    expect(await screen.findByText("Strength")).toBeInTheDocument();
    expect(screen.getByText("74/100")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Strength 74 out of 100" })).toBeInTheDocument();
    expect(screen.queryByText("Confidence")).not.toBeInTheDocument();
    expect(screen.queryByText("74%")).not.toBeInTheDocument();
  });
});

describe("SignalDetailDialog: Add to Portfolio", () => {
  it("posts one open contract at the signal's entry price and toasts 'Success'", async () => {
    const fetchMock = api();
    const { queryClient } = renderDialog(makeSignal({ strategy: "Mean Reversion", confidence: 64 }));
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Signal added to your portfolio successfully")).toBeInTheDocument();
    expect(screen.getByText("Success")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/manual-positions")).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 1,
      status: "open",
      entryPrice: 3.2,
      reasoning: "Mean Reversion strategy signal, strength 64/100",
    });
    // The portfolio's manual positions and figures are refetched.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["/api/manual-positions"] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["/api/portfolio/metrics"] });
  });

  it("uses the option's current price when the signal has no entry price", async () => {
    const fetchMock = api();
    renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: 4.05 }));
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(fetchMock, "/api/manual-positions")).toMatchObject({ entryPrice: 4.05 });
  });

  it("uses the current price, then the strike, when neither option price is known", async () => {
    const fetchMock = api();
    const first = renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 248.1 }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(fetchMock, "/api/manual-positions")).toMatchObject({ entryPrice: 248.1 });
    first.unmount();

    const second = api();
    renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 0, strikePrice: 245 }));
    await user.click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(second, "/api/manual-positions")).toMatchObject({ entryPrice: 245, strikePrice: 245 });
  });

  it("says 'Failed to add signal to portfolio' when the server refuses", async () => {
    api(() => problem(422, "Unprocessable Entity", "Invalid position", [{ field: "expirationDate", message: "in the past" }]));
    renderDialog(makeSignal());
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Failed to add signal to portfolio")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });
});
