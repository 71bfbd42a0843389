import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeManualPosition } from "@/test/portfolio-fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { AddPositionDialog } from "./add-position-dialog";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 23, 12, 0)); // Monday, November 23, 2026
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open form
      </button>
      <AddPositionDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openForm(user = userEvent.setup()) {
  await user.click(screen.getByRole("button", { name: "Open form" }));
  const dialog = within(await screen.findByRole("dialog", { name: "Add Manual Position" }));
  return { user, dialog };
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>, dialog: ReturnType<typeof within>) {
  await user.type(dialog.getByLabelText("Stock Symbol"), "aapl");
  await user.type(dialog.getByLabelText("Company Name"), "Apple Inc.");
  await user.selectOptions(dialog.getByLabelText("Option Type"), "PUT");
  await user.type(dialog.getByLabelText("Strike Price (USD)"), "250");
  await user.clear(dialog.getByLabelText("Quantity"));
  await user.type(dialog.getByLabelText("Quantity"), "2");
  await user.type(dialog.getByLabelText("Entry Price (USD)"), "3.25");
}

const posts = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === "/api/manual-positions" && init?.method === "POST");

describe("AddPositionDialog", () => {
  it("has its description, Call/Put/Straddle options and defaults: CALL, 1 contract, expiring today", async () => {
    mockFetch(() => jsonResponse({}));
    renderWithProviders(<Harness />);
    const { dialog } = await openForm();
    expect(dialog.getByText("Track your own option contracts alongside automated signals")).toBeInTheDocument();
    expect(dialog.getByLabelText("Option Type")).toHaveValue("CALL");
    expect(dialog.getAllByRole("option").map((o) => o.textContent)).toEqual(["Call", "Put", "Straddle"]);
    expect(dialog.getByLabelText("Quantity")).toHaveValue(1);
    expect(dialog.getByLabelText("Strike Price (USD)")).toHaveAttribute("step", "0.01");
    expect(dialog.getByLabelText("Entry Price (USD)")).toHaveAttribute("step", "0.01");
    expect(dialog.getByRole("button", { name: /^Expiration Date/ })).toHaveTextContent("Monday, November 23, 2026");
  });

  it("checks the input before sending anything", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await user.clear(dialog.getByLabelText("Quantity"));
    await user.type(dialog.getByLabelText("Quantity"), "0");
    await user.type(dialog.getByLabelText("Strike Price (USD)"), "-5");
    await user.type(dialog.getByLabelText("Stop Loss (USD, optional)"), "1.234");
    await user.click(dialog.getByRole("button", { name: "Add Position" }));
    expect(await dialog.findByText("Enter a stock symbol")).toBeInTheDocument();
    expect(dialog.getByText("Enter the company name")).toBeInTheDocument();
    expect(dialog.getByText("The strike price must be above 0")).toBeInTheDocument();
    expect(dialog.getByText("Enter a whole number of contracts, at least 1")).toBeInTheDocument();
    expect(dialog.getByText("Enter the entry price")).toBeInTheDocument();
    expect(dialog.getByText("Use at most two decimals")).toBeInTheDocument();
    expect(dialog.getByLabelText("Stock Symbol")).toHaveAttribute("aria-invalid", "true");
    expect(posts(fetchMock)).toHaveLength(0);
  });

  it("offers no past expiration date in its calendar", async () => {
    mockFetch(() => jsonResponse({}));
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await user.click(dialog.getByRole("button", { name: /^Expiration Date/ }));
    const calendar = await screen.findByRole("grid", { name: "November 2026" });
    expect(within(calendar).getByRole("button", { name: "Sunday, November 22, 2026" })).toBeDisabled();
    expect(within(calendar).getByRole("button", { name: "Monday, November 2, 2026" })).toBeDisabled();
    expect(within(calendar).getByRole("button", { name: "Monday, November 23, 2026" })).toBeEnabled();
    await user.click(within(calendar).getByRole("button", { name: "Friday, November 27, 2026" }));
    await waitFor(() => expect(screen.queryByRole("grid")).not.toBeInTheDocument());
    expect(dialog.getByRole("button", { name: /^Expiration Date/ })).toHaveTextContent("Friday, November 27, 2026");
  });

  it("sends the position, toasts 'Position Added', closes and goes back to its defaults", async () => {
    const fetchMock = mockFetch((url, init) =>
      url === "/api/manual-positions" && init.method === "POST" ? jsonResponse(makeManualPosition(), 201) : jsonResponse([]),
    );
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await fillRequired(user, dialog);
    await user.type(dialog.getByLabelText("Target Price (USD, optional)"), "5.5");
    await user.click(dialog.getByRole("button", { name: /^Expiration Date/ }));
    await user.click(await screen.findByRole("button", { name: "Next month" }));
    await user.click(screen.getByRole("button", { name: "Friday, December 18, 2026" }));
    await user.click(dialog.getByRole("button", { name: "Add Position" }));

    expect(await screen.findByText("Position Added")).toBeInTheDocument();
    expect(screen.getByText("Your manual position has been added successfully.")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/manual-positions")).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "PUT",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 2,
      entryPrice: 3.25,
      targetPrice: 5.5,
    });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add Manual Position" })).not.toBeInTheDocument());

    const again = (await openForm(user)).dialog;
    expect(again.getByLabelText("Stock Symbol")).toHaveValue("");
    expect(again.getByLabelText("Company Name")).toHaveValue("");
    expect(again.getByLabelText("Option Type")).toHaveValue("CALL");
    expect(again.getByLabelText("Strike Price (USD)")).toHaveValue(null);
    expect(again.getByLabelText("Quantity")).toHaveValue(1);
    expect(again.getByLabelText("Entry Price (USD)")).toHaveValue(null);
    expect(again.getByLabelText("Target Price (USD, optional)")).toHaveValue(null);
    expect(again.getByRole("button", { name: /^Expiration Date/ })).toHaveTextContent("Monday, November 23, 2026");
  });

  it("keeps what was typed when closed without adding", async () => {
    mockFetch(() => jsonResponse([]));
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await user.type(dialog.getByLabelText("Stock Symbol"), "msft");
    await user.click(dialog.getByRole("button", { name: "Cancel" }));
    const again = (await openForm(user)).dialog;
    expect(again.getByLabelText("Stock Symbol")).toHaveValue("MSFT");
  });

  it("says 'Please check your input data.' when the server refuses with details, and shows them", async () => {
    mockFetch(() =>
      problem(422, "Unprocessable Entity", "The position has invalid fields.", [
        { field: "strikePrice", message: "The strike must be a multiple of $0.50" },
      ]),
    );
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await fillRequired(user, dialog);
    await user.click(dialog.getByRole("button", { name: "Add Position" }));
    expect(await screen.findByText("Please check your input data.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(dialog.getByText("The strike must be a multiple of $0.50")).toBeInTheDocument();
    expect(dialog.getByLabelText("Stock Symbol")).toHaveValue("AAPL");
  });

  it("says 'Failed to add position.' for any other failure", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<Harness />);
    const { user, dialog } = await openForm();
    await fillRequired(user, dialog);
    await user.click(dialog.getByRole("button", { name: "Add Position" }));
    expect(await screen.findByText("Failed to add position.")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Add Manual Position" })).toBeInTheDocument();
  });
});
