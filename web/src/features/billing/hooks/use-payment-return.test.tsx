import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TAB_CHANNEL } from "@/lib/live-events";
import { resetToastsForTests } from "@/lib/toast";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { PAYMENT_SUCCESS_TOAST, usePaymentReturn } from "./use-payment-return";

const scrollTo = window.scrollTo;

afterEach(() => {
  window.scrollTo = scrollTo;
  vi.unstubAllGlobals();
  resetToastsForTests();
});

function Probe() {
  const { confirming } = usePaymentReturn();
  return <p>{confirming ? "confirming" : "not confirming"}</p>;
}

describe("usePaymentReturn", () => {
  it("back from paying: opens at the top of the page, toasts, and tells the user's other tabs", async () => {
    mockFetch(() => jsonResponse({}));
    const scrolled = vi.fn();
    window.scrollTo = scrolled as unknown as typeof window.scrollTo;
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel(TAB_CHANNEL);
    otherTab.onmessage = (event) => heard.push(event.data);
    try {
      renderWithProviders(<Probe />, { route: "/settings?tab=subscription&success=true" });
      expect(await screen.findByText(PAYMENT_SUCCESS_TOAST.title)).toBeInTheDocument();
      expect(screen.getByText("confirming")).toBeInTheDocument();
      expect(scrolled).toHaveBeenCalledWith(0, 0);
      await waitFor(() => expect(heard).toEqual([expect.objectContaining({ topic: "billing" })]));
    } finally {
      otherTab.close();
    }
  });

  it("leaves the page where it is on an ordinary visit", async () => {
    mockFetch(() => jsonResponse({}));
    const scrolled = vi.fn();
    window.scrollTo = scrolled as unknown as typeof window.scrollTo;
    renderWithProviders(<Probe />, { route: "/settings?tab=subscription" });
    expect(await screen.findByText("not confirming")).toBeInTheDocument();
    expect(scrolled).not.toHaveBeenCalled();
  });
});
