import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeExchangeRates, makeUserSettings } from "@/test/settings-fixtures";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { GeneralTab } from "./general-tab";

afterEach(() => vi.unstubAllGlobals());

const ACCOUNT = { email: "ada@example.com", username: "ada", firstName: "Ada", lastName: "Lovelace", createdAt: "2026-01-05T10:00:00Z" };

function server(currency: "USD" | "EUR") {
  return mockFetch((url) => {
    if (url === "/api/user/preferences") return jsonResponse(makeUserSettings({ currency }));
    if (url === "/api/exchange-rates") return jsonResponse(makeExchangeRates());
    return jsonResponse({});
  });
}

describe("GeneralTab's currency", () => {
  it("says which amounts convert and which stay in US dollars, next to the rate", async () => {
    server("EUR");
    renderWithProviders(<GeneralTab account={ACCOUNT} />);
    const select = await screen.findByLabelText("Display currency");
    expect(await screen.findByText(/Converted from US dollars at 1 USD = 0\.9000 EUR/)).toBeInTheDocument();
    const scope = screen.getByTestId("currency-scope");
    expect(scope).toHaveTextContent(
      "Strikes, option prices and stock quotes stay in US dollars; values, P&L, capital and limits are shown in your currency.",
    );
    // The select's description carries it, so a screen reader hears it with the choice.
    expect(select).toHaveAccessibleDescription(/stock quotes stay in US dollars/);
  });

  it("says it in US dollars too", async () => {
    server("USD");
    renderWithProviders(<GeneralTab account={ACCOUNT} />);
    expect(await screen.findByTestId("currency-scope")).toHaveTextContent(/^Strikes, option prices and stock quotes stay in US dollars/);
  });
});
