import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { InvoiceView, SubscriptionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { makeInvoice, makePaidSubscription, makeSubscription } from "@/test/billing-fixtures";
import { makeChangePreview } from "./test-fixtures";
import { bodyOf, jsonResponse, makePlanCatalogue, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { SubscriptionTab } from "./subscription-tab";

afterEach(() => vi.unstubAllGlobals());

const plans = makePlanCatalogue().plans;

type Answer = () => Response;

function billingApi({
  subscription = makeSubscription(),
  invoices = [],
  cancel,
  resume,
  change,
  preview,
}: {
  subscription?: SubscriptionView;
  invoices?: InvoiceView[];
  cancel?: Answer;
  resume?: Answer;
  change?: Answer;
  preview?: Answer;
} = {}) {
  return mockFetch((url, init) => {
    if (url.startsWith("/api/billing/change/preview?") && preview) return preview();
    if (url === "/api/billing/subscription") return jsonResponse(subscription);
    if (url === "/api/billing/invoices") return jsonResponse(invoices);
    if (url === "/api/auth/me")
      return jsonResponse(makeUser({ subscriptionPlan: subscription.plan, subscriptionStatus: subscription.status }));
    if (url === "/api/billing/cancel" && init.method === "POST" && cancel) return cancel();
    if (url === "/api/billing/resume" && init.method === "POST" && resume) return resume();
    if (url === "/api/billing/change" && init.method === "POST" && change) return change();
    return problem(404, "Not Found");
  });
}

const detail = (testId: string) => screen.getByTestId(testId);
const calls = (fetchMock: ReturnType<typeof mockFetch>, path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === path);

describe("SubscriptionTab", () => {
  it("shows the trial with the server's days left, Upgrade Plan, and no invoices", async () => {
    billingApi();
    renderWithProviders(<SubscriptionTab plans={plans} />);
    expect(await screen.findByTestId("subscription-plan")).toHaveTextContent("ProTrial");
    expect(detail("subscription-status")).toHaveTextContent(
      /^Pro trial, 10 days left \(until December 3, 2026\)\. Afterwards the account moves to Free unless you subscribe\.$/,
    );
    expect(screen.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/pricing");
    expect(screen.queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change plan" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("subscription-billing")).not.toBeInTheDocument();
    expect(await screen.findByText("No invoices yet")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Pro includes" })).toHaveTextContent("50 signals per day");
  });

  it("shows a paid plan's billing, next charge, card and credit in US dollars, and its invoices", async () => {
    billingApi({
      subscription: makePaidSubscription({ creditCents: 1234 }),
      invoices: [
        makeInvoice(),
        makeInvoice({
          id: "00000000-0000-4000-9000-000000000002",
          number: "SL-20261201-FFFF0000",
          description: "Pro plan, monthly",
          amountCents: 4900,
          status: "failed",
          failureMessage: "Your card was declined.",
          createdAt: "2026-12-01T09:00:00Z",
        }),
        makeInvoice({ id: "00000000-0000-4000-9000-000000000003", number: "SL-3", amountCents: 100050, creditAppliedCents: 2500 }),
      ],
    });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    expect(await screen.findByTestId("subscription-plan")).toHaveTextContent("PremiumActive");
    expect(detail("subscription-status")).toHaveTextContent("Renews on November 23, 2027: $1,430.00 will be charged to Visa •••• 4242.");
    expect(detail("subscription-billing")).toHaveTextContent("Yearly · $1,430.00/year");
    expect(detail("subscription-next-billing")).toHaveTextContent("November 23, 2027 · $1,430.00");
    expect(detail("subscription-card")).toHaveTextContent("Visa •••• 4242");
    expect(detail("subscription-credit")).toHaveTextContent("$12.34 · taken off your next invoice");
    expect(screen.getByRole("button", { name: "Change plan" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancel subscription" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Upgrade Plan" })).not.toBeInTheDocument();

    const table = within(await screen.findByTestId("invoice-table"));
    expect(table.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Date",
      "Invoice",
      "Description",
      "Amount",
      "Status",
      "Download",
    ]);
    const rows = table.getAllByTestId("invoice-row");
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent("Nov 23, 2026");
    expect(rows[0]).toHaveTextContent("SL-20261123-1A2B3C4D");
    expect(rows[0]).toHaveTextContent("Premium plan, yearly");
    expect(rows[0]).toHaveTextContent("$1,430.00");
    expect(rows[0]).toHaveTextContent("Paid");
    const download = within(rows[0]).getByRole("link", { name: "Download invoice SL-20261123-1A2B3C4D" });
    expect(download).toHaveAttribute("href", "/api/billing/invoices/4f5b1c2a-0d3e-4a5b-8c7d-9e0f1a2b3c4d");
    expect(download).toHaveAttribute("download");
    expect(rows[1]).toHaveTextContent("Failed");
    expect(rows[1]).toHaveTextContent("Your card was declined.");
    expect(rows[1]).toHaveTextContent("$49.00");
    expect(rows[2]).toHaveTextContent("$1,000.50after $25.00 credit");
    // Phones get the same invoices as a list.
    expect(screen.getAllByTestId("invoice-item")).toHaveLength(3);
  });

  it("cancels after asking, keeps the plan to the period's end, and reads the user again", async () => {
    const cancelled = makePaidSubscription({ cancelAtPeriodEnd: true, nextBilling: null });
    const fetchMock = billingApi({ subscription: makePaidSubscription(), cancel: () => jsonResponse(cancelled) });
    const { queryClient } = renderWithProviders(<SubscriptionTab plans={plans} />);
    queryClient.setQueryData(queryKeys.currentUser(), makeUser({ subscriptionPlan: "premium", subscriptionStatus: "active" }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Cancel subscription" }));
    const dialog = screen.getByRole("alertdialog", { name: "Cancel your subscription?" });
    expect(dialog).toHaveTextContent("Premium stays until November 23, 2027, the end of the period you have paid for.");
    await user.click(within(dialog).getByRole("button", { name: "Keep subscription" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(calls(fetchMock, "/api/billing/cancel")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Cancel subscription" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Confirm cancellation" }));
    expect(await screen.findByText("Subscription Cancelled")).toBeInTheDocument();
    expect(screen.getByText("Premium stays until November 23, 2027, then the account moves to Free.")).toBeInTheDocument();
    expect(detail("subscription-badge")).toHaveTextContent("Cancels on November 23, 2027");
    expect(detail("subscription-next-billing")).toHaveTextContent("None: the subscription is cancelled");
    expect(screen.getByRole("button", { name: "Resume Premium" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
    // The sidebar's and header's plan come from the user: read again.
    expect(queryClient.getQueryState(queryKeys.currentUser())?.isInvalidated).toBe(true);
    await waitFor(() => expect(calls(fetchMock, "/api/billing/invoices").length).toBe(2));
  });

  it("toasts the server's reason when cancelling fails", async () => {
    billingApi({
      subscription: makePaidSubscription(),
      cancel: () => problem(409, "Already taken", "Your subscription changed in the meantime. Reload and try again."),
    });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Cancel subscription" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Confirm cancellation" }));
    expect(await screen.findByText("Cancellation Failed")).toBeInTheDocument();
    expect(screen.getByText("Your subscription changed in the meantime. Reload and try again.")).toBeInTheDocument();
  });

  it("resumes a cancelled subscription", async () => {
    const fetchMock = billingApi({
      subscription: makePaidSubscription({ cancelAtPeriodEnd: true, nextBilling: null }),
      resume: () => jsonResponse(makePaidSubscription()),
    });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Resume Premium" }));
    expect(await screen.findByText("Subscription Resumed")).toBeInTheDocument();
    expect(screen.getByText("Premium renews on November 23, 2027.")).toBeInTheDocument();
    expect(detail("subscription-badge")).toHaveTextContent("Active");
    expect(calls(fetchMock, "/api/billing/resume")).toHaveLength(1);
  });

  it("changes plan: every paid plan and period with its price, the current one marked, nothing chosen, the preview, then charged", async () => {
    const fetchMock = billingApi({
      subscription: makePaidSubscription(),
      preview: () => jsonResponse(makeChangePreview()),
      change: () =>
        jsonResponse(
          makePaidSubscription({
            plan: "pro",
            billing: "monthly",
            nextBilling: { date: "2026-12-23T12:00:00Z", amountCents: 0 },
            creditCents: 95000,
          }),
        ),
    });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Change plan" }));
    const dialog = within(screen.getByRole("dialog", { name: "Change plan" }));
    const radios = dialog.getAllByRole("radio");
    expect(radios.map((r) => r.closest("label")?.textContent)).toEqual([
      "Pro · Monthly$49.00/month",
      "Pro · Yearly$470.00/year",
      "Premium · Monthly$149.00/month",
      "Premium · YearlyCurrent plan$1,430.00/year",
    ]);
    expect(radios[3]).toBeDisabled();
    expect(radios.filter((r) => (r as HTMLInputElement).checked)).toEqual([]);
    expect(dialog.getByRole("button", { name: "Change plan" })).toBeDisabled();
    expect(dialog.getByTestId("proration-note")).toHaveTextContent("Changes are prorated and charged now");
    expect(dialog.getByTestId("proration-note")).toHaveTextContent("Visa •••• 4242");
    await user.click(radios[0]);
    expect(await dialog.findByTestId("preview-today")).toHaveTextContent("Nothing to pay today");
    await user.click(dialog.getByRole("button", { name: "Change plan" }));
    expect(await screen.findByText("Plan Changed")).toBeInTheDocument();
    expect(screen.getByText("You're now on Pro, billed monthly.")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/billing/change")).toEqual({ plan: "pro", billing: "monthly" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(detail("subscription-plan")).toHaveTextContent("ProActive");
    expect(detail("subscription-credit")).toHaveTextContent("$950.00");
  });

  it("keeps the change dialog open with 'Payment Failed' and the provider's message when the card is declined", async () => {
    billingApi({
      subscription: makePaidSubscription(),
      change: () => problem(402, "Payment Failed", "Your card was declined."),
      preview: () =>
        jsonResponse(
          makeChangePreview({ plan: "premium", billing: "monthly", chargedTodayCents: 1200, proratedCents: 1200, creditAfterCents: 0 }),
        ),
    });
    renderWithProviders(<SubscriptionTab plans={plans} requestedChange={{ plan: "premium", billing: "monthly" }} />);
    // A change chosen on the pricing page opens the dialog with it selected.
    const dialog = within(await screen.findByRole("dialog", { name: "Change plan" }));
    expect(dialog.getByRole("radio", { name: /Premium · Monthly/ })).toBeChecked();
    await userEvent.setup().click(await dialog.findByRole("button", { name: "Pay $12.00 and change plan" }));
    expect(await screen.findByText("Payment Failed")).toBeInTheDocument();
    expect(dialog.getByRole("alert")).toHaveTextContent("Your card was declined.");
    expect(screen.getByRole("dialog", { name: "Change plan" })).toBeInTheDocument();
    expect(detail("subscription-plan")).toHaveTextContent("PremiumActive");
  });

  it("shows a past-due account with the end of its grace period", async () => {
    billingApi({ subscription: makePaidSubscription({ status: "past_due", graceEndsAt: "2027-11-30T12:00:00Z", nextBilling: null }) });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    expect(await screen.findByTestId("subscription-badge")).toHaveTextContent("Past due");
    expect(detail("subscription-status")).toHaveTextContent(
      "The last payment did not go through. Premium stays until November 30, 2027 while the card on file is retried once a day",
    );
  });

  it("shows a subscription that ended as Free, with Upgrade Plan", async () => {
    billingApi({
      subscription: makeSubscription({
        plan: "free",
        status: "canceled",
        trialDaysLeft: null,
        currentPeriodEnd: null,
        card: { brand: "visa", last4: "4242" },
      }),
    });
    renderWithProviders(<SubscriptionTab plans={plans} />);
    expect(await screen.findByTestId("subscription-plan")).toHaveTextContent("FreeCanceled");
    expect(screen.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/pricing");
    expect(screen.queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
  });

  it("back from Stripe, reads the subscription again until the payment shows, then the user", async () => {
    let reads = 0;
    mockFetch((url) => {
      if (url === "/api/billing/subscription") {
        reads += 1;
        return jsonResponse(reads < 2 ? makeSubscription() : makePaidSubscription());
      }
      if (url === "/api/billing/invoices") return jsonResponse([]);
      return problem(404, "Not Found");
    });
    const { queryClient } = renderWithProviders(<SubscriptionTab plans={plans} confirming />);
    queryClient.setQueryData(queryKeys.currentUser(), makeUser());
    expect(await screen.findByTestId("subscription-badge")).toHaveTextContent("Trial");
    await waitFor(() => expect(screen.getByTestId("subscription-plan")).toHaveTextContent("PremiumActive"), { timeout: 5000 });
    expect(queryClient.getQueryState(queryKeys.currentUser())?.isInvalidated).toBe(true);
  });
});
