import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SubscriptionView } from "@/lib/api/models";
import { TAB_CHANNEL } from "@/lib/live-events";
import { setMoneyDisplay } from "@/lib/money-display";
import { resetToastsForTests } from "@/lib/toast";
import { makePaidSubscription } from "@/test/billing-fixtures";
import { bodyOf, jsonResponse, makePlanCatalogue, mockFetch, problem, renderWithProviders } from "@/test/utils";
import type { ChangePreview } from "../api/get-change-preview";
import { ChangePlanDialog } from "./change-plan-dialog";
import { makeChangePreview } from "./test-fixtures";

afterEach(() => {
  vi.unstubAllGlobals();
  resetToastsForTests();
  setMoneyDisplay(null);
});

const plans = makePlanCatalogue().plans;
const PREVIEW = "/api/billing/change/preview";

/**
 * A server answering the preview with `preview(plan, billing)` (a held answer with `hold`) and
 * the change with the new subscription.
 */
function server({
  preview = () => jsonResponse(makeChangePreview()),
  change = () => jsonResponse(makePaidSubscription({ plan: "pro", billing: "monthly" })),
}: {
  preview?: (plan: string | null, billing: string | null) => Response | Promise<Response>;
  change?: () => Response;
} = {}) {
  return mockFetch((url, init) => {
    if (url.startsWith(`${PREVIEW}?`)) {
      const query = new URLSearchParams(url.slice(url.indexOf("?") + 1));
      return preview(query.get("plan"), query.get("billing"));
    }
    if (url === "/api/billing/change" && init.method === "POST") return change();
    if (url === "/api/auth/me") return jsonResponse({});
    if (url === "/api/billing/invoices") return jsonResponse([]);
    return problem(404, "Not Found");
  });
}

async function openDialog(subscription: SubscriptionView = makePaidSubscription()) {
  renderWithProviders(<ChangePlanDialog subscription={subscription} plans={plans} />);
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Change plan" }));
  const dialog = within(await screen.findByRole("dialog", { name: "Change plan" }));
  return { user, dialog };
}

const previews = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(PREVIEW));

describe("ChangePlanDialog", () => {
  it("opens with nothing chosen for a Premium-yearly account, its plan marked 'Current plan' and not choosable, and asks nothing of the server", async () => {
    const fetchMock = server();
    const { dialog } = await openDialog();
    const radios = dialog.getAllByRole("radio");
    expect(radios).toHaveLength(4);
    for (const radio of radios) expect(radio).not.toBeChecked();
    const current = dialog.getByRole("radio", { name: /Premium · Yearly/ });
    expect(current).toBeDisabled();
    expect(current.closest("label")).toHaveTextContent("Premium · YearlyCurrent plan$1,430.00/year");
    expect(dialog.getByTestId("change-preview")).toHaveTextContent(
      "Choose a plan and billing period to see what it costs today and from the next period.",
    );
    expect(dialog.getByRole("button", { name: "Change plan" })).toBeDisabled();
    expect(previews(fetchMock)).toEqual([]);
  });

  it("shows the preview once a plan is chosen: loading, then nothing to pay today, the credit kept, and the credit covering the next period", async () => {
    let release: () => void = () => {};
    const fetchMock = server({
      preview: () => new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(makeChangePreview())))),
    });
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
    expect(await dialog.findByRole("status", { name: "Working out what this change costs" })).toBeInTheDocument();
    expect(dialog.getByRole("button", { name: "Change plan" })).toBeDisabled();
    expect(previews(fetchMock)).toEqual([`${PREVIEW}?plan=pro&billing=monthly`]);
    release();

    expect(await dialog.findByTestId("preview-today")).toHaveTextContent("TodayNothing to pay today");
    expect(dialog.getByTestId("preview-credit")).toHaveTextContent("Credit kept$666.00 · taken off your next invoices");
    expect(dialog.getByTestId("preview-next")).toHaveTextContent(
      "Next periodYour credit of $666.00 covers itThe $49.00 due on Jan 27, 2027 is taken from your credit; nothing is charged to your card.",
    );
    expect(dialog.getByRole("region", { name: "What this change costs" })).toHaveTextContent("Pro · Monthly");
    // The figures come before the confirm button.
    const button = dialog.getByRole("button", { name: "Change plan" });
    expect(button).toBeEnabled();
    expect(dialog.getByTestId("change-preview").compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("an upgrade: what is charged today to the card, then the full price on the period's end; the button says what it pays", async () => {
    server({
      preview: (plan, billing) =>
        jsonResponse(
          makeChangePreview({
            plan: plan as ChangePreview["plan"],
            billing: billing as ChangePreview["billing"],
            proratedCents: 8412,
            chargedTodayCents: 8412,
            creditAfterCents: 0,
            periodEnd: "2026-12-23T12:00:00Z",
            nextChargeCents: 14900,
            priceCents: 14900,
          }),
        ),
    });
    const { user, dialog } = await openDialog(makePaidSubscription({ plan: "pro", billing: "monthly" }));
    await user.click(dialog.getByRole("radio", { name: /Premium · Monthly/ }));
    expect(await dialog.findByTestId("preview-today")).toHaveTextContent("Today$84.12 charged to Visa •••• 4242");
    expect(dialog.getByTestId("preview-credit")).toHaveTextContent("Credit kept$0.00");
    expect(dialog.getByTestId("preview-next")).toHaveTextContent("Next periodThen $149.00 on Dec 23, 2026");
    expect(dialog.getByRole("button", { name: "Pay $84.12 and change plan" })).toBeEnabled();
  });

  it("says what today's charge is made of (owed first, credit used) and a next charge partly paid by credit", async () => {
    server({
      preview: () =>
        jsonResponse(
          makeChangePreview({
            owedFirstCents: 4900,
            proratedCents: 3000,
            creditAppliedCents: 1000,
            chargedTodayCents: 6900,
            creditAfterCents: 1900,
            nextChargeCents: 3000,
            priceCents: 4900,
          }),
        ),
    });
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
    expect(await dialog.findByTestId("preview-today")).toHaveTextContent(
      "$69.00 charged to Visa •••• 4242$49.00 owed for your current plan first; $10.00 of your credit used",
    );
    expect(dialog.getByTestId("preview-next")).toHaveTextContent("Then $30.00 on Jan 27, 2027$49.00/month less $19.00 of credit");
  });

  it("keeps billing in US dollars when money is shown in euros", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.9 });
    server();
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
    expect(await dialog.findByTestId("preview-credit")).toHaveTextContent("$666.00");
    expect(dialog.getByTestId("change-preview")).not.toHaveTextContent("€");
  });

  it("shows the server's reason when the preview fails, keeps the change unconfirmable, and tries again", async () => {
    let fail = true;
    server({
      preview: () => (fail ? problem(503, "Service Unavailable", "Billing is unavailable right now.") : jsonResponse(makeChangePreview())),
    });
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
    const alert = await dialog.findByRole("alert");
    expect(alert).toHaveTextContent("Could not work out what this change costs");
    expect(alert).toHaveTextContent("Billing is unavailable right now.");
    expect(dialog.getByRole("button", { name: "Change plan" })).toBeDisabled();
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await dialog.findByTestId("preview-today")).toHaveTextContent("Nothing to pay today");
    expect(dialog.getByRole("button", { name: "Change plan" })).toBeEnabled();
  });

  it("reads the preview of each choice in turn", async () => {
    const fetchMock = server({
      preview: (plan, billing) =>
        jsonResponse(
          plan === "pro" && billing === "yearly"
            ? makeChangePreview({ billing: "yearly", creditAfterCents: 12345, priceCents: 47000, periodEnd: "2027-12-27T12:00:00Z" })
            : makeChangePreview(),
        ),
    });
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
    expect(await dialog.findByTestId("preview-credit")).toHaveTextContent("$666.00");
    await user.click(dialog.getByRole("radio", { name: /Pro · Yearly/ }));
    await waitFor(() => expect(dialog.getByTestId("preview-credit")).toHaveTextContent("$123.45"));
    expect(dialog.getByTestId("preview-next")).toHaveTextContent("Dec 27, 2027");
    expect(previews(fetchMock)).toEqual([`${PREVIEW}?plan=pro&billing=monthly`, `${PREVIEW}?plan=pro&billing=yearly`]);
  });

  it("changes the plan chosen, closes, and tells the user's other tabs", async () => {
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel(TAB_CHANNEL);
    otherTab.onmessage = (event) => heard.push(event.data);
    try {
      const fetchMock = server();
      const { user, dialog } = await openDialog();
      await user.click(dialog.getByRole("radio", { name: /Pro · Monthly/ }));
      await dialog.findByTestId("preview-today");
      await user.click(dialog.getByRole("button", { name: "Change plan" }));
      expect(await screen.findByText("You're now on Pro, billed monthly.")).toBeInTheDocument();
      expect(bodyOf(fetchMock, "/api/billing/change")).toEqual({ plan: "pro", billing: "monthly" });
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
      await waitFor(() => expect(heard).toEqual([expect.objectContaining({ topic: "billing" })]));
    } finally {
      otherTab.close();
    }
  });
});
