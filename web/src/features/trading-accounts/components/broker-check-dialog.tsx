import { CircleCheckIcon, InfoIcon, Loader2Icon, RotateCwIcon, TriangleAlertIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { TradingAccount } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { formatCount, formatMoney } from "@/lib/format";
import { cn } from "@/lib/utils";
import { type BrokerCheck, type ContractDifference, useBrokerReconciliation } from "../api/get-broker-reconciliation";
import {
  checkFailureText,
  contractLabel,
  differenceText,
  feesNote,
  holdingText,
  otherHoldingsText,
  refusedForPlan,
  summaryText,
} from "../lib/broker-check";

const CHECKING = "Checking with Alpaca…";

const COLUMNS = [
  { label: "Our books", value: (d: ContractDifference) => holdingText(d.ours) },
  { label: "Alpaca", value: (d: ContractDifference) => holdingText(d.theirs) },
  { label: "Difference", value: (d: ContractDifference) => differenceText(d) },
] as const;

/** The contract in words over its OCC symbol (small, monospaced). */
function Contract({ difference }: { difference: ContractDifference }) {
  return (
    <>
      <span className="block font-medium break-words">{contractLabel(difference)}</span>
      <span className="block font-mono text-xs break-all text-muted-foreground">{difference.symbol}</span>
    </>
  );
}

/** The differences as a table, from 768 px; scrolls sideways inside the dialog when narrower than its columns. */
function DifferencesTable({ differences }: { differences: ContractDifference[] }) {
  return (
    <div
      className="hidden overflow-x-auto rounded-md border outline-none focus-visible:ring-2 focus-visible:ring-ring md:block"
      tabIndex={0}
      role="region"
      aria-label="Differences table"
    >
      <table className="w-full min-w-[560px] text-sm">
        <caption className="sr-only">Contracts the two books hold in different numbers. Negative counts are written contracts.</caption>
        <thead>
          <tr className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <th scope="col" className="px-3 py-2 font-medium">
              Contract
            </th>
            {COLUMNS.map((column) => (
              <th key={column.label} scope="col" className="px-3 py-2 text-right font-medium">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {differences.map((difference) => (
            <tr key={difference.symbol} className="border-b align-top last:border-b-0" data-testid="difference-row">
              <th scope="row" className="px-3 py-2.5 text-left font-normal">
                <Contract difference={difference} />
              </th>
              {COLUMNS.map((column) => (
                <td key={column.label} className="px-3 py-2.5 text-right whitespace-nowrap tabular">
                  {column.value(difference)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The differences on phones (below 768 px), each contract stacked over its three counts. */
function DifferencesList({ differences }: { differences: ContractDifference[] }) {
  return (
    <ul className="grid divide-y rounded-md border md:hidden" aria-label="Differences">
      {differences.map((difference) => (
        <li key={difference.symbol} className="grid gap-2 px-3 py-3 text-sm" data-testid="difference-item">
          <div className="min-w-0">
            <Contract difference={difference} />
          </div>
          <dl className="grid grid-cols-3 gap-x-3">
            {COLUMNS.map((column) => (
              <div key={column.label} className="min-w-0">
                <dt className="text-xs text-muted-foreground">{column.label}</dt>
                <dd className="mt-0.5 font-medium break-words tabular">{column.value(difference)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** The headline: the books agree (with how many contracts match), or how many contracts differ, as a warning in words and an icon. */
function CheckSummary({ check }: { check: BrokerCheck }) {
  const agree = check.differences.length === 0;
  return agree ? (
    <p className="flex items-start gap-2 rounded-lg border border-positive/40 bg-positive/10 px-3 py-2.5 text-sm font-medium">
      <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
      <span>{summaryText(check)}</span>
    </p>
  ) : (
    <p className="flex items-start gap-2 rounded-lg border border-amber-600/40 bg-amber-500/10 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-400/40 dark:text-amber-200">
      <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        <span className="sr-only">Warning: </span>
        <span className="font-semibold">{summaryText(check)}</span>
        {check.matched > 0 ? <span>; {summaryMatched(check.matched)}</span> : null}.
      </span>
    </p>
  );
}

/** "1 matches", "4 match". */
function summaryMatched(matched: number): string {
  return `${formatCount(matched)} ${matched === 1 ? "matches" : "match"}`;
}

/** A label over its value, in the check's figures. */
function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium break-words tabular">{children}</dd>
    </div>
  );
}

/** What Alpaca reports beside the summary: its cash, options buying power and fees, when the check ran, the differences and what was not compared. */
function CheckDetails({ check }: { check: BrokerCheck }) {
  const other = otherHoldingsText(check.otherHoldings);
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3" data-testid="broker-figures">
        <Figure label="Cash at Alpaca">{formatMoney(check.brokerCash)}</Figure>
        <Figure label="Options buying power">
          {check.brokerOptionsBuyingPower == null ? "Not reported" : formatMoney(check.brokerOptionsBuyingPower)}
        </Figure>
        <Figure label="Fees at Alpaca since connected">{formatMoney(check.brokerFees)}</Figure>
        <Figure label="Checked at">
          <time dateTime={check.checkedAt}>{formatDateTime(check.checkedAt)}</time>
        </Figure>
      </dl>
      <p className="text-xs text-muted-foreground" data-testid="broker-fees-note">
        {feesNote(check.feesBooked)}
      </p>
      {check.differences.length > 0 ? (
        <>
          <DifferencesTable differences={check.differences} />
          <DifferencesList differences={check.differences} />
          <p className="text-xs text-muted-foreground">
            Negative counts are written (short) contracts. The difference is Alpaca&apos;s count less ours.
          </p>
        </>
      ) : null}
      {other ? (
        <p className="flex gap-2 rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground">
          <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{other}</span>
        </p>
      ) : null}
    </div>
  );
}

/** Why the check failed, in the server's words; below Premium, with the way to the plans. */
function CheckFailure({ error }: { error: unknown }) {
  return (
    <span className="break-words">
      {checkFailureText(error)}
      {refusedForPlan(error) ? (
        <>
          {" "}
          <Link to="/pricing" className="font-medium text-primary-strong underline underline-offset-4">
            See plans
          </Link>
        </>
      ) : null}
    </span>
  );
}

/**
 * The check itself, mounted while the dialog is open: "Checking with Alpaca…" while it runs,
 * then the summary (in a live region, so a screen reader hears the outcome) over Alpaca's
 * figures and the differences; or the server's reason with "Try again".
 */
function BrokerCheckBody({ account, onClose }: { account: TradingAccount; onClose: () => void }) {
  const { query, checkAgain } = useBrokerReconciliation(account.id);
  const refreshing = query.isFetching && !query.isPending;
  const settled = query.isSuccess && !query.isFetching ? query.data : undefined;
  return (
    <>
      <div aria-live="polite" aria-atomic="true" data-testid="broker-check-summary">
        {refreshing ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2Icon className="size-4 animate-spin" aria-hidden />
            {CHECKING}
          </p>
        ) : settled ? (
          <CheckSummary check={settled} />
        ) : null}
      </div>
      <QueryState
        query={query}
        loadingLabel={CHECKING}
        showLoadingLabel
        skeleton={<SkeletonRows count={3} className="h-10 w-full" />}
        skeletonClassName="gap-2"
        errorTitle="Failed to check against Alpaca"
        errorDetail={(error) => <CheckFailure error={error} />}
        errorLayout="banner"
      >
        {(check) => <CheckDetails check={check} />}
      </QueryState>
      <DialogFooter>
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
        {query.isSuccess ? (
          <Button variant="outline" onClick={checkAgain} disabled={query.isFetching}>
            <RotateCwIcon aria-hidden className={cn(query.isFetching && "animate-spin")} />
            Check again
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}

/**
 * "Check against Alpaca" for an account connected to Alpaca (Premium): the options contracts our
 * books hold for it (open automated and manual positions) against Alpaca's positions. The check
 * runs when the dialog opens, and again on "Check again"; nothing is kept once it closes.
 */
export function BrokerCheckDialog({
  account,
  onOpenChange,
  onCloseAutoFocus,
}: {
  /** The account to check; null when the dialog is closed. */
  account: TradingAccount | null;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>["onCloseAutoFocus"];
}) {
  return (
    <Dialog open={account !== null} onOpenChange={onOpenChange}>
      {account ? (
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto p-4 sm:p-6" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle className="break-words">Check {account.name} against Alpaca</DialogTitle>
            <DialogDescription className="break-words">
              The options contracts our books hold for this account (open automated and manual positions), contract by contract, against
              Alpaca&apos;s positions.
            </DialogDescription>
          </DialogHeader>
          <BrokerCheckBody account={account} onClose={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
