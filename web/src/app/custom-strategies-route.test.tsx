import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedInApi } from "@/test/fixtures";
import { jsonResponse, makeUser, mockFetch, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

afterEach(() => vi.unstubAllGlobals());

function signedIn(user = makeUser()) {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(user);
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

describe("/custom-strategies", () => {
  it("shows Premium the builder, under its own title and nav entry", async () => {
    signedIn(makeUser({ subscriptionPlan: "premium", subscriptionStatus: "active" }));
    renderWithProviders(<AppRoutes />, { route: "/custom-strategies" });
    expect(await screen.findByRole("heading", { level: 1, name: "Custom strategies" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "New strategy" })).toBeInTheDocument();
    expect(screen.queryByTestId("custom-strategies-locked")).not.toBeInTheDocument();
    expect(document.title).toBe("Custom strategies · Strikeline");
    const nav = screen.getAllByRole("navigation", { name: "App" })[0];
    expect(within(nav).getByRole("link", { name: "Custom strategies" })).toHaveAttribute("href", "/custom-strategies");
  });

  it("shows Pro the locked card and the saved list", async () => {
    const fetchMock = signedIn();
    renderWithProviders(<AppRoutes />, { route: "/custom-strategies" });
    expect(await screen.findByTestId("custom-strategies-locked")).toBeInTheDocument();
    expect(await screen.findByText("No saved strategies")).toBeInTheDocument();
    expect(screen.queryByLabelText("Name")).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/strategies/custom/preview")).toEqual([]);
  });
});
