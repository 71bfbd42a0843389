import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { User } from "@/lib/api/models";
import { setMoneyDisplay } from "@/lib/money-display";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { InvestmentPreferencesForm } from "./investment-preferences-form";

afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

const URL = "/api/user/preferences";

const patches = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === URL && init?.method === "PATCH");

/** The server's answer to a PATCH: the stored user with the sent fields applied. */
function savedUser(init: RequestInit, stored: User = makeUser()): Response {
  return jsonResponse({ ...stored, ...(JSON.parse(String(init.body)) as Partial<User>) });
}

function renderForm(user: User = makeUser()) {
  const result = renderWithProviders(<InvestmentPreferencesForm user={user} />);
  return { ...result, events: userEvent.setup() };
}

/** The figure shown under `label` in the allocation summary. */
function summaryValue(label: string) {
  const term = screen.getByText(label, { selector: "dt" });
  return term.nextElementSibling?.textContent;
}

async function replace(events: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await events.clear(input);
  if (text) await events.type(input, text);
}

describe("InvestmentPreferencesForm", () => {
  it("takes amounts in US dollars and says so, with what they come to in the display currency", async () => {
    mockFetch(() => jsonResponse({}));
    const { events } = renderForm(makeUser({ investmentCapital: 1000, maxPositionSize: 100 }));
    const capital = screen.getByLabelText("Investment capital (USD)");
    expect(capital).toHaveAccessibleDescription("In US dollars.");
    expect(screen.getByLabelText("Max position size (USD)")).toHaveAccessibleDescription(
      "In US dollars per position, at most the capital.",
    );
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    await replace(events, capital, "2000");
    expect(capital).toHaveAccessibleDescription("In US dollars (about €1,840.00).");
    expect(screen.getByLabelText("Max position size (USD)")).toHaveAccessibleDescription(
      "In US dollars (about €92.00) per position, at most the capital.",
    );
  });

  it("starts from the stored values, with the risk levels named and the allocation derived", () => {
    mockFetch(() => jsonResponse({}));
    renderForm(
      makeUser({
        investmentCapital: 25000,
        maxPositionSize: 2500,
        riskTolerance: "high",
        preferredStrategies: "Volatility,Mean Reversion",
      }),
    );
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveValue(25000);
    expect(screen.getByLabelText("Max position size (USD)")).toHaveValue(2500);
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveAttribute("step", "0.01");
    expect(screen.getByLabelText("Risk tolerance")).toHaveValue("high");
    expect(screen.getByLabelText("Risk tolerance")).toHaveDisplayValue("Aggressive");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Conservative", "Moderate", "Aggressive"]);
    expect(screen.getAllByRole("checkbox").map((c) => c.getAttribute("value"))).toEqual([
      "Momentum",
      "Mean Reversion",
      "Breakout",
      "Volatility",
    ]);
    expect(screen.getByRole("checkbox", { name: "Momentum" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Mean Reversion" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Breakout" })).not.toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Volatility" })).toBeChecked();
    expect(summaryValue("Maximum positions")).toBe("10");
    expect(summaryValue("Risk per trade")).toBe("10.0%");
    expect(summaryValue("Strategies")).toBe("2");
    expect(screen.getByRole("button", { name: "Save Preferences" })).toBeEnabled();
  });

  it("keeps edits local until saved, and the summary follows them without dividing by zero", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    const { events } = renderForm();
    await replace(events, screen.getByLabelText("Max position size (USD)"), "250");
    expect(summaryValue("Maximum positions")).toBe("4");
    expect(summaryValue("Risk per trade")).toBe("25.0%");
    await replace(events, screen.getByLabelText("Max position size (USD)"), "");
    expect(summaryValue("Maximum positions")).toBe("—");
    expect(summaryValue("Risk per trade")).toBe("—");
    await replace(events, screen.getByLabelText("Max position size (USD)"), "0");
    expect(summaryValue("Maximum positions")).toBe("—");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toggling a strategy adds it when absent and removes it when present; none is allowed", async () => {
    const fetchMock = mockFetch((url, init) => (url === URL ? savedUser(init) : jsonResponse({})));
    const { events } = renderForm(makeUser({ preferredStrategies: "Momentum,Breakout" }));
    const momentum = screen.getByRole("checkbox", { name: "Momentum" });
    const breakout = screen.getByRole("checkbox", { name: "Breakout" });
    const volatility = screen.getByRole("checkbox", { name: "Volatility" });

    await events.click(volatility);
    expect(volatility).toBeChecked();
    expect(summaryValue("Strategies")).toBe("3");
    await events.click(volatility);
    expect(volatility).not.toBeChecked();
    // The keyboard toggles too.
    momentum.focus();
    await events.keyboard(" ");
    expect(momentum).not.toBeChecked();
    await events.click(breakout);
    expect(summaryValue("Strategies")).toBe("0");

    await events.click(screen.getByRole("button", { name: "Save Preferences" }));
    expect(await screen.findByText("Preferences Updated")).toBeInTheDocument();
    expect(bodyOf(fetchMock, URL)).toEqual({
      investmentCapital: 1000,
      riskTolerance: "medium",
      maxPositionSize: 100,
      preferredStrategies: "",
    });
  });

  it("sends exactly the edited values, strategies in the list's order, and toasts 'Preferences Updated'", async () => {
    const fetchMock = mockFetch((url, init) => (url === URL ? savedUser(init) : jsonResponse({})));
    const { events } = renderForm(makeUser({ preferredStrategies: "Breakout" }));
    await replace(events, screen.getByLabelText("Investment capital (USD)"), "25000.5");
    await replace(events, screen.getByLabelText("Max position size (USD)"), "2500.25");
    await events.selectOptions(screen.getByLabelText("Risk tolerance"), "Conservative");
    await events.click(screen.getByRole("checkbox", { name: "Volatility" }));
    await events.click(screen.getByRole("checkbox", { name: "Momentum" }));
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));

    expect(await screen.findByText("Preferences Updated")).toBeInTheDocument();
    expect(screen.getByText("Your investment preferences have been saved successfully.")).toBeInTheDocument();
    expect(patches(fetchMock)).toHaveLength(1);
    expect(bodyOf(fetchMock, URL)).toEqual({
      investmentCapital: 25000.5,
      riskTolerance: "low",
      maxPositionSize: 2500.25,
      preferredStrategies: "Momentum,Breakout,Volatility",
    });
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveValue(25000.5);
    expect(screen.getByRole("checkbox", { name: "Volatility" })).toBeChecked();
  });

  it("shows 'Saving...' on a disabled button while the save is pending", async () => {
    let release = () => {};
    mockFetch((url, init) =>
      url === URL ? new Promise<Response>((resolve) => (release = () => resolve(savedUser(init)))) : jsonResponse({}),
    );
    const { events } = renderForm();
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));
    const saving = await screen.findByRole("button", { name: "Saving..." });
    expect(saving).toBeDisabled();
    release();
    expect(await screen.findByRole("button", { name: "Save Preferences" })).toBeEnabled();
  });

  it("blocks a max position size above the capital before sending, next to the field", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    const { events } = renderForm();
    await replace(events, screen.getByLabelText("Max position size (USD)"), "1500");
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));

    const message = await screen.findByText("The maximum position size cannot be more than the investment capital");
    const input = screen.getByLabelText("Max position size (USD)");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAttribute("aria-describedby", message.id);
    expect(input).toHaveFocus();
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveAttribute("aria-invalid", "false");
    expect(patches(fetchMock)).toHaveLength(0);

    // Fixing it clears the message.
    await replace(events, input, "1000");
    await waitFor(() => expect(input).toHaveAttribute("aria-invalid", "false"));
    expect(screen.queryByText("The maximum position size cannot be more than the investment capital")).not.toBeInTheDocument();
  });

  it("checks that amounts are more than 0 with at most two decimals", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    const { events } = renderForm();
    await replace(events, screen.getByLabelText("Investment capital (USD)"), "1000.125");
    await replace(events, screen.getByLabelText("Max position size (USD)"), "0");
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));
    expect(await screen.findByText("Use at most two decimals")).toBeInTheDocument();
    expect(screen.getByText("The max position size must be more than 0")).toBeInTheDocument();
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveAttribute("aria-invalid", "true");
    expect(patches(fetchMock)).toHaveLength(0);
  });

  it("a 422 shows the server's message on the named field and toasts 'Update Failed'", async () => {
    mockFetch((url) =>
      url === URL
        ? problem(422, "Unprocessable Entity", "Some values are not valid.", [
            { field: "investmentCapital", message: "Must be at most 1,000,000,000" },
            { field: "preferredStrategies", message: "Must be one of Momentum, Mean Reversion, Breakout, Volatility" },
          ])
        : jsonResponse({}),
    );
    const { events } = renderForm();
    await replace(events, screen.getByLabelText("Investment capital (USD)"), "5000");
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));

    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to update your preferences. Please try again.")).toBeInTheDocument();
    const message = screen.getByText("Must be at most 1,000,000,000");
    const capital = screen.getByLabelText("Investment capital (USD)");
    expect(capital).toHaveAttribute("aria-invalid", "true");
    expect(capital).toHaveAttribute("aria-describedby", message.id);
    expect(capital).toHaveValue(5000);
    expect(screen.getByLabelText("Max position size (USD)")).toHaveAttribute("aria-invalid", "false");
    const strategiesMessage = screen.getByText("Must be one of Momentum, Mean Reversion, Breakout, Volatility");
    expect(screen.getByRole("group", { name: "Preferred strategies" })).toHaveAttribute("aria-describedby", strategiesMessage.id);
    expect(screen.getByRole("checkbox", { name: "Momentum" })).toHaveAttribute("aria-invalid", "true");
  });

  it("any other failure toasts 'Update Failed' and marks no field", async () => {
    mockFetch((url) => (url === URL ? problem(500, "Internal Server Error") : jsonResponse({})));
    const { events } = renderForm();
    await events.click(screen.getByRole("button", { name: "Save Preferences" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to update your preferences. Please try again.")).toBeInTheDocument();
    expect(screen.getByLabelText("Investment capital (USD)")).toHaveAttribute("aria-invalid", "false");
    expect(screen.getByRole("button", { name: "Save Preferences" })).toBeEnabled();
  });
});
