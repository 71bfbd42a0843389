import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStockPrice } from "@/test/fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { AddStocksDialog } from "./add-stocks-dialog";

afterEach(() => vi.unstubAllGlobals());

async function open() {
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Add Stocks" }));
  const dialog = within(await screen.findByRole("dialog", { name: "Add Stocks" }));
  return { user, dialog };
}

describe("AddStocksDialog", () => {
  it("asks for at least one stock", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<AddStocksDialog />);
    const { user, dialog } = await open();
    await user.type(dialog.getByLabelText("Bulk add"), "   {enter}{enter}");
    await user.click(dialog.getByRole("button", { name: "Add Stocks" }));
    expect(await screen.findByText("No Stocks")).toBeInTheDocument();
    expect(screen.getByText("Please add at least one stock with a valid symbol")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends rows and bulk lines, toasts the summary and lists why entries failed", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({
        results: [
          { symbol: "AMD", ok: true, reason: null, stock: makeStockPrice({ symbol: "AMD" }) },
          { symbol: "1BAD", ok: false, reason: '"1BAD" is not a valid symbol', stock: null },
        ],
        summary: { successful: 1, failed: 1 },
      }),
    );
    renderWithProviders(<AddStocksDialog />);
    const { user, dialog } = await open();
    await user.type(dialog.getByLabelText("Symbol"), "amd");
    await user.selectOptions(dialog.getByLabelText("Sector"), "Technology");
    await user.type(dialog.getByLabelText("Bulk add"), "1bad, Bad Co{enter}");
    await user.click(dialog.getByRole("button", { name: "Add Stocks" }));

    expect(await screen.findByText("Stocks Added")).toBeInTheDocument();
    expect(screen.getByText("Successfully added 1 stocks. 1 failed.")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/stock-prices/bulk-add")).toEqual({
      symbols: [
        { symbol: "AMD", sector: "Technology" },
        { symbol: "1BAD", companyName: "Bad Co", sector: "Technology" },
      ],
    });
    const failures = dialog.getByTestId("bulk-add-failures");
    expect(failures).toHaveTextContent("1 stock was not added");
    expect(failures).toHaveTextContent('1BAD: "1BAD" is not a valid symbol');
    expect(dialog.getByLabelText("Bulk add")).toHaveValue("");
  });

  it("closes when every stock was added", async () => {
    mockFetch(() =>
      jsonResponse({ results: [{ symbol: "AMD", ok: true, reason: null, stock: null }], summary: { successful: 1, failed: 0 } }),
    );
    renderWithProviders(<AddStocksDialog />);
    const { user, dialog } = await open();
    await user.type(dialog.getByLabelText("Bulk add"), "amd");
    await user.click(dialog.getByRole("button", { name: "Add Stocks" }));
    expect(await screen.findByText("Successfully added 1 stocks.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("adds and removes rows", async () => {
    mockFetch(() => jsonResponse({}));
    renderWithProviders(<AddStocksDialog />);
    const { user, dialog } = await open();
    await user.click(dialog.getByRole("button", { name: "Add another" }));
    expect(dialog.getAllByLabelText("Symbol")).toHaveLength(2);
    await user.click(dialog.getByRole("button", { name: "Remove stock 2" }));
    expect(dialog.getAllByLabelText("Symbol")).toHaveLength(1);
    expect(dialog.getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Technology",
      "Healthcare",
      "Financial",
      "Consumer",
      "Energy",
      "Industrial",
      "Utilities",
      "Real Estate",
      "Materials",
      "Communications",
    ]);
  });

  it("says when the watchlist cannot be changed", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<AddStocksDialog />);
    const { user, dialog } = await open();
    await user.type(dialog.getByLabelText("Bulk add"), "amd");
    await user.click(dialog.getByRole("button", { name: "Add Stocks" }));
    expect(await screen.findByText("Failed to add stocks to watchlist")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });
});
