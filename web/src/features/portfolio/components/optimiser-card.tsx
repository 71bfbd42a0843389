import { BadgeCheckIcon, CheckIcon, ChevronDownIcon, InfoIcon, Loader2Icon, ScaleIcon, SearchXIcon } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { LockedFeature } from "@/components/locked-feature";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { errorMessage } from "@/lib/api/client";
import { useCustomStrategyName } from "@/lib/api/custom-strategies";
import type { ChanceSource, LeftOut, Optimisation, OptimisationLimits, ProposedPosition } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatMoney, formatPercent, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useOptimisePortfolio } from "../api/optimise-portfolio";
import { SendProposal } from "./send-proposal";

/** Said wherever a proposal is shown: the optimiser buys nothing; "Send as orders" does, after a confirmation. */
export const PROPOSAL_ONLY = "A proposal only: nothing is bought until you send it as orders.";

/** The empty state's sentence when candidates were weighed and none was worth holding. */
export const NOTHING_WINS = "Nothing to propose: no signal you can see wins on average within your limits.";

/** The toast's fallback when the server gives no reason. */
export const OPTIMISE_FAILED = "Failed to propose positions. Please try again.";

const CHANCE_SOURCE_LABELS: Record<ChanceSource, string> = {
  model: "model",
  track_record: "track record",
  history: "history",
};

/** 0.6 → "60%": a checked probability (the model's, or the strategy's win rate), whole percent. */
export function formatChance(probability: number): string {
  return formatPercent(Math.min(1, Math.max(0, probability)) * 100, 0);
}

const signals = (n: number) => `${n} ${n === 1 ? "signal" : "signals"}`;
const contractsText = (n: number) => `${n} ${n === 1 ? "contract" : "contracts"}`;

/**
 * Why nothing is proposed, from the server's counts: no signal to weigh, none with a checked
 * chance and a price, no premium budget left, or none that wins on average within the limits.
 */
export function emptyReason(result: Pick<Optimisation, "candidates" | "leftOut" | "limits">): string {
  const leftOut = result.leftOut.length;
  if (result.candidates === 0 && leftOut === 0) return "Nothing to propose: there is no active signal you can see right now.";
  if (result.candidates === 0) {
    return `Nothing to propose: none of the ${signals(leftOut)} you can see could be weighed; why is listed below.`;
  }
  if (result.limits.budget <= 0) {
    return "Nothing to propose: your open positions already use the premium budget (a quarter of your capital).";
  }
  return NOTHING_WINS;
}

/** A signed dollar figure: +$1,234.00, -$12.50 (money: shown in the display currency). */
const signed = (value: number) => formatMoney(value, { signed: true });

/** A bound `[low, high]` in money: "±$500.00" when symmetric, else "-$300.00 to +$500.00". */
export function formatRange([low = 0, high = 0]: readonly number[]): string {
  if (low === -high) return `±${formatMoney(Math.abs(high))}`;
  return `${signed(low)} to ${signed(high)}`;
}

/**
 * Whether the proposal is the proven best, or the best the search found within its step budget
 * and how far below the best it can be (the fractional optimum bounds it).
 */
export function optimality(result: Pick<Optimisation, "provenOptimal" | "expectedPnl" | "expectedPnlBound">): string {
  if (result.provenOptimal) return "Proven the best whole-contract choice within your limits.";
  const gap = Math.max(0, result.expectedPnlBound - result.expectedPnl);
  return `The best found within the search's step budget: at most ${formatMoney(gap)} of expected P&L below the best possible (no choice can exceed ${signed(result.expectedPnlBound)}).`;
}

/** "before → after", the arrow read as "to". */
function BeforeAfter({ before, after, format }: { before: number; after: number; format: (v: number) => string }) {
  // It may wrap after the arrow, never inside a figure.
  return (
    <span>
      <span className="whitespace-nowrap">
        {format(before)}
        <span aria-hidden className="pl-1 text-muted-foreground">
          →
        </span>
        <span className="sr-only"> to</span>
      </span>{" "}
      <span className="whitespace-nowrap">{format(after)}</span>
    </span>
  );
}

type FactProps = { label: ReactNode; children: ReactNode; hint?: ReactNode; testId?: string; className?: string };

function Fact({ label, children, hint, testId, className }: FactProps) {
  return (
    <div className={cn("min-w-0", className)} data-testid={testId}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-semibold break-words tabular">
        {children}
        {hint ? <span className="block text-xs font-normal text-muted-foreground">{hint}</span> : null}
      </dd>
    </div>
  );
}

/** The limits the proposal keeps (docs/optimisation.md, "The limits"), as a compact list. */
function LimitsList({ limits, headingId }: { limits: OptimisationLimits; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="grid gap-2" data-testid="optimiser-limits">
      <h3 id={headingId} className="text-sm font-semibold">
        Limits used
      </h3>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 sm:grid-cols-3 lg:grid-cols-6">
        <Fact label="Budget" hint="premium left to spend" testId="optimiser-budget">
          {formatMoney(limits.budget)}
        </Fact>
        <Fact label="Per position">{formatMoney(limits.maxPositionCost)}</Fact>
        <Fact label="Per symbol">{formatMoney(limits.maxPerSymbol)}</Fact>
        <Fact label="Per strategy">{formatMoney(limits.maxPerStrategy)}</Fact>
        <Fact label="Net delta">{formatRange(limits.delta)}</Fact>
        <Fact label="Net vega" hint="per volatility point">
          {formatRange(limits.vega)}
        </Fact>
      </dl>
    </section>
  );
}

type ExposureBarProps = {
  label: string;
  before: number;
  after: number;
  bound: readonly number[];
  testId: string;
};

/**
 * A net exposure before and after the proposal against its bound: the track is the allowed
 * range (low to high), with a tick at zero, a hollow dot where the book stands now and a solid
 * one where it would stand with the proposal.
 */
function ExposureBar({ label, before, after, bound, testId }: ExposureBarProps) {
  const [low = 0, high = 0] = bound;
  const min = Math.min(low, before, after, 0);
  const max = Math.max(high, before, after, 0);
  const span = max - min || 1;
  const at = (value: number) => `${(((value - min) / span) * 100).toFixed(2)}%`;
  const from = Math.min(before, after);
  const moved = Math.abs(after - before);
  return (
    <figure className="grid gap-1.5" data-testid={testId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground tabular">
          <BeforeAfter before={before} after={after} format={signed} />
        </span>
      </figcaption>
      <div
        role="img"
        aria-label={`${label}: ${signed(before)} now, ${signed(after)} with the proposal; the limit is ${formatRange(bound)}.`}
        className="relative h-5"
      >
        <div className="absolute inset-x-0 top-1/2 h-2 -translate-y-1/2 rounded-full bg-muted" />
        <div
          className="absolute top-1/2 h-2 -translate-y-1/2 rounded-full border border-primary/40 bg-primary/15"
          style={{ left: at(low), width: `${(((high - low) / span) * 100).toFixed(2)}%` }}
        />
        <div className="absolute inset-y-0 w-px bg-foreground/30" style={{ left: at(0) }} />
        <div
          className="absolute top-1/2 h-1 -translate-y-1/2 bg-primary/70"
          style={{ left: at(from), width: `${((moved / span) * 100).toFixed(2)}%` }}
        />
        <span
          className="absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-muted-foreground bg-card"
          style={{ left: at(before) }}
        />
        <span
          className="absolute top-1/2 size-3.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-card bg-primary"
          style={{ left: at(after) }}
        />
      </div>
      <div className="flex justify-between text-[0.7rem] text-muted-foreground tabular" aria-hidden>
        <span>{signed(low)}</span>
        <span>0</span>
        <span>{signed(high)}</span>
      </div>
    </figure>
  );
}

/** The proposal's totals and its net delta and vega, before → after, against their bounds. */
function Totals({ result, headingId }: { result: Optimisation; headingId: string }) {
  const contracts = result.positions.reduce((sum, p) => sum + p.contracts, 0);
  return (
    <section aria-labelledby={headingId} className="grid gap-4" data-testid="optimiser-totals">
      <h3 id={headingId} className="sr-only">
        Totals
      </h3>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 lg:grid-cols-[repeat(3,minmax(0,1fr))_minmax(0,1.5fr)_minmax(0,1.2fr)]">
        <Fact label="Proposed" testId="optimiser-total-positions" className="col-span-2 sm:col-span-1">
          {signals(result.positions.length)}
          <span className="block text-xs font-normal text-muted-foreground">{contractsText(contracts)}</span>
        </Fact>
        <Fact label="Cost" hint={`of ${formatMoney(result.limits.budget)} budget`} testId="optimiser-total-cost">
          {formatMoney(result.cost)}
        </Fact>
        <Fact label="Expected P&L" hint="on average, after costs" testId="optimiser-total-pnl">
          <span className={SIGN_TEXT_CLASS[signOf(result.expectedPnl)]}>{signed(result.expectedPnl)}</span>
        </Fact>
        <Fact label="Net delta" testId="optimiser-total-delta">
          <BeforeAfter before={result.deltaBefore} after={result.deltaAfter} format={signed} />
        </Fact>
        <Fact label="Net vega" hint="per volatility point" testId="optimiser-total-vega">
          <BeforeAfter before={result.vegaBefore} after={result.vegaAfter} format={signed} />
        </Fact>
      </dl>
      <p className="inline-flex items-start gap-2 text-xs text-muted-foreground" data-testid="optimiser-optimality">
        {result.provenOptimal ? (
          <BadgeCheckIcon className="mt-px size-3.5 shrink-0 text-positive-strong" aria-hidden />
        ) : (
          <InfoIcon className="mt-px size-3.5 shrink-0" aria-hidden />
        )}
        {optimality(result)}
      </p>
      <div className="grid gap-4 rounded-lg border p-3 sm:grid-cols-2 sm:gap-6">
        <ExposureBar
          label="Net delta"
          before={result.deltaBefore}
          after={result.deltaAfter}
          bound={result.limits.delta}
          testId="delta-bar"
        />
        <ExposureBar
          label="Net vega (per vol point)"
          before={result.vegaBefore}
          after={result.vegaAfter}
          bound={result.limits.vega}
          testId="vega-bar"
        />
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground sm:col-span-2" aria-hidden>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-full border-2 border-muted-foreground bg-card" /> Now
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-full bg-primary" /> With the proposal
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="h-2 w-4 rounded-full border border-primary/40 bg-primary/15" /> Within the limit
          </span>
        </p>
      </div>
    </section>
  );
}

/**
 * The symbol column stays in view while the table scrolls sideways on a narrow screen, where the
 * table runs to the card's edges (its own padding in the first and last cells).
 */
const STICKY = "sticky left-0 z-10 bg-card pl-5 shadow-[inset_-1px_0_0_var(--color-border)] sm:static sm:pl-0 sm:shadow-none";
const LAST = "pr-5 sm:pr-0";

const HEADERS = [
  { label: "Symbol" },
  { label: "Type" },
  { label: "Strike", right: true },
  { label: "Expiry" },
  { label: "Contracts", right: true },
  { label: "Premium", right: true },
  { label: "Cost", right: true },
  { label: "Chance", right: true },
  { label: "Expected P&L", right: true },
  { label: "Delta $", right: true },
] as const;

function ChanceCell({ position }: { position: ProposedPosition }) {
  return (
    <span className="inline-flex items-center justify-end gap-1.5 whitespace-nowrap">
      <span className="font-medium">{formatChance(position.probability)}</span>
      <span
        className={cn(
          "rounded-full border px-1.5 py-px text-[0.65rem] leading-4 font-medium",
          position.probabilitySource === "model" ? "border-primary/30 text-primary-strong" : "text-muted-foreground",
        )}
        data-testid="chance-source"
      >
        <span className="sr-only">from the </span>
        {CHANCE_SOURCE_LABELS[position.probabilitySource] ?? position.probabilitySource}
      </span>
    </span>
  );
}

function PositionRow({ position }: { position: ProposedPosition }) {
  const cell = "py-2.5 pr-3";
  const custom = position.strategy === "Custom";
  // A custom strategy's signal is named as the signals name it: by the user's strategy.
  const customName = useCustomStrategyName(custom ? position.customStrategyId : null);
  return (
    <tr className="border-b last:border-b-0" data-testid="proposed-position">
      <th scope="row" className={cn(cell, STICKY, "text-left font-normal")}>
        <span className="block font-semibold">{position.symbol}</span>
        <span className="block text-xs text-muted-foreground">{custom ? (customName ?? "Custom") : position.strategy}</span>
      </th>
      <td className={cell}>
        <OptionTypeBadge type={position.type} />
      </td>
      <td className={cn(cell, "text-right tabular")}>{formatContractPrice(position.strikePrice)}</td>
      <td className={cn(cell, "whitespace-nowrap")}>{formatShortDate(position.expirationDate)}</td>
      <td className={cn(cell, "text-right tabular")}>{position.contracts}</td>
      <td className={cn(cell, "text-right tabular")}>{formatContractPrice(position.premium)}</td>
      <td className={cn(cell, "text-right tabular")}>{formatMoney(position.cost)}</td>
      <td className={cn(cell, "text-right tabular")}>
        <ChanceCell position={position} />
      </td>
      <td className={cn(cell, "text-right whitespace-nowrap tabular", SIGN_TEXT_CLASS[signOf(position.expectedPnl)])}>
        {signed(position.expectedPnl)}
      </td>
      <td className={cn("py-2.5 text-right whitespace-nowrap tabular", LAST)}>{signed(position.deltaDollars)}</td>
    </tr>
  );
}

/** The proposed positions, best expected P&L first; the table scrolls inside its own box on narrow screens. */
function PositionsTable({ result, headingId }: { result: Optimisation; headingId: string }) {
  const contracts = result.positions.reduce((sum, p) => sum + p.contracts, 0);
  const delta = result.positions.reduce((sum, p) => sum + p.deltaDollars, 0);
  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3 id={headingId} className="text-sm font-semibold">
          Proposed positions
        </h3>
        <p className="text-xs text-muted-foreground sm:hidden">Scroll sideways for every column.</p>
      </div>
      <div
        className="relative -mx-5 overflow-x-auto outline-none focus-visible:ring-2 focus-visible:ring-ring sm:mx-0"
        tabIndex={0}
        role="region"
        aria-label="Proposed positions table"
      >
        <table className="w-full min-w-[880px] text-sm" data-testid="optimiser-positions">
          <caption className="sr-only">
            Proposed positions, best expected P&L first. Chance is the checked probability of reaching the target before the stop, and its
            source.
          </caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              {HEADERS.map((h, i) => (
                <th
                  key={h.label}
                  scope="col"
                  className={cn("py-2 pr-3 font-medium", i === 0 && STICKY, i === HEADERS.length - 1 && LAST, "right" in h && "text-right")}
                >
                  {h.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.positions.map((p) => (
              <PositionRow key={p.signalId} position={p} />
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t-2 text-sm font-semibold">
              <th scope="row" className={cn("py-2.5 pr-3 text-left", STICKY)}>
                Total
              </th>
              <td colSpan={3} className="py-2.5 pr-3" />
              <td className="py-2.5 pr-3 text-right tabular">{contracts}</td>
              <td className="py-2.5 pr-3" />
              <td className="py-2.5 pr-3 text-right tabular">{formatMoney(result.cost)}</td>
              <td className="py-2.5 pr-3" />
              <td className={cn("py-2.5 pr-3 text-right whitespace-nowrap tabular", SIGN_TEXT_CLASS[signOf(result.expectedPnl)])}>
                {signed(result.expectedPnl)}
              </td>
              <td className={cn("py-2.5 text-right whitespace-nowrap tabular", LAST)}>{signed(delta)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="mt-2 text-xs text-muted-foreground" data-testid="chance-sources">
        Chance: <strong className="font-medium">model</strong> is the predictive model&apos;s probability given at issue;{" "}
        <strong className="font-medium">track record</strong> is the strategy&apos;s win rate over its resolved live signals;{" "}
        <strong className="font-medium">history</strong> adds the signals replayed from stored history while the live ones are still too
        few.
      </p>
    </section>
  );
}

/** The left-out signals grouped by the server's reason, in the order each reason first appears; a symbol listed once with its count. */
export function groupLeftOut(leftOut: readonly LeftOut[]): { reason: string; symbols: { symbol: string; count: number }[] }[] {
  const groups = new Map<string, Map<string, number>>();
  for (const item of leftOut) {
    const symbols = groups.get(item.reason) ?? new Map<string, number>();
    symbols.set(item.symbol, (symbols.get(item.symbol) ?? 0) + 1);
    groups.set(item.reason, symbols);
  }
  return [...groups].map(([reason, symbols]) => ({ reason, symbols: [...symbols].map(([symbol, count]) => ({ symbol, count })) }));
}

/** The signals not considered, grouped by the server's reason: collapsed until opened. */
function LeftOutList({ leftOut }: { leftOut: LeftOut[] }) {
  return (
    <details className="group rounded-lg border" data-testid="optimiser-left-out">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg px-3 py-2.5 text-sm font-medium outline-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        <span>
          {signals(leftOut.length)} left out
          <span className="font-normal text-muted-foreground"> · why</span>
        </span>
        <ChevronDownIcon className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden />
      </summary>
      <ul className="divide-y border-t">
        {groupLeftOut(leftOut).map((group) => (
          <li key={group.reason} className="grid gap-2 px-3 py-3 text-sm" data-testid="left-out-reason">
            <p className="text-muted-foreground">{group.reason}</p>
            <ul className="flex flex-wrap gap-1.5" aria-label="Signals left out for this reason">
              {group.symbols.map(({ symbol, count }) => (
                <li key={symbol} className="rounded-md border bg-muted/40 px-1.5 py-0.5 text-xs font-semibold tabular">
                  {symbol}
                  {count > 1 ? (
                    <span className="font-normal text-muted-foreground">
                      {" "}
                      ×{count}
                      <span className="sr-only"> signals</span>
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Proposal({ result }: { result: Optimisation }) {
  const id = useId();
  const empty = result.positions.length === 0;
  return (
    <div className="grid min-w-0 gap-6" data-testid="optimiser-result">
      {empty ? (
        <div
          className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card/50 px-6 py-8 text-center"
          data-testid="optimiser-empty"
        >
          <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <SearchXIcon className="size-5" aria-hidden />
          </div>
          <p className="max-w-md text-sm font-medium">{emptyReason(result)}</p>
          {result.candidates > 0 ? (
            <p className="max-w-md text-sm text-muted-foreground">
              {signals(result.candidates)} with a checked chance {result.candidates === 1 ? "was" : "were"} weighed.
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <Totals result={result} headingId={`${id}-totals`} />
          <PositionsTable result={result} headingId={`${id}-positions`} />
        </>
      )}
      <LimitsList limits={result.limits} headingId={`${id}-limits`} />
      {result.leftOut.length > 0 ? <LeftOutList leftOut={result.leftOut} /> : null}
    </div>
  );
}

/**
 * Premium: the button, then the last proposal (kept while a new one runs, or after a refusal),
 * and with one position or more, "Send as orders".
 */
function Optimiser() {
  const titleId = useId();
  const optimise = useOptimisePortfolio();
  const [result, setResult] = useState<Optimisation | null>(null);
  // The proposal last sent as orders: "Sent as orders" shows until a new proposal replaces it.
  const [sent, setSent] = useState<Optimisation | null>(null);
  const busy = optimise.isPending;
  const sendable = result != null && result.positions.length > 0;

  const run = async () => {
    try {
      setResult(await optimise.mutateAsync());
    } catch (error) {
      toast({ variant: "destructive", title: "Optimisation failed", description: errorMessage(error, OPTIMISE_FAILED) });
    }
  };

  const status = busy
    ? "Weighing the signals you can see against your limits…"
    : result
      ? result.positions.length > 0
        ? `Proposal ready: ${signals(result.positions.length)}, expected P&L ${signed(result.expectedPnl)}.`
        : "Proposal ready: nothing to propose."
      : "";

  return (
    <Card className="min-w-0" role="region" aria-labelledby={titleId} aria-busy={busy} data-testid="optimiser-card">
      <CardHeader className="border-b pb-4">
        <h2 id={titleId} className="inline-flex items-center gap-2 text-base leading-tight font-semibold">
          <ScaleIcon className="size-5 text-muted-foreground" aria-hidden />
          Optimise
        </h2>
        <CardDescription>
          How many contracts of which signals you can see now would make the most on average, while your book stays within the risk model's
          comfortable levels.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-5 pt-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="inline-flex items-start gap-2 text-sm font-medium" data-testid="optimiser-note">
            <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary-strong" aria-hidden />
            {PROPOSAL_ONLY}
          </p>
          <div className="flex flex-col gap-2 sm:shrink-0 sm:flex-row">
            <Button
              type="button"
              variant={sendable ? "outline" : "default"}
              onClick={() => void run()}
              disabled={busy}
              aria-busy={busy}
              className="w-full sm:w-auto"
            >
              {busy ? <Loader2Icon className="animate-spin" aria-hidden /> : <ScaleIcon aria-hidden />}
              {busy ? "Optimising…" : result ? "Propose again" : "Propose positions"}
            </Button>
            {sendable ? <SendProposal result={result} disabled={busy} onSent={() => setSent(result)} /> : null}
          </div>
        </div>
        {sendable && sent === result ? (
          <p className="inline-flex items-start gap-2 text-sm text-muted-foreground" data-testid="optimiser-sent">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
            Sent as orders: they are listed under Orders. Propose again to weigh what is left of your budget.
          </p>
        ) : null}
        <span role="status" className="sr-only">
          {status}
        </span>
        {result ? (
          <div className={cn("min-w-0 transition-opacity", busy && "opacity-60")}>
            <Proposal result={result} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * Portfolio › Optimise (issue 29, item 5; docs/optimisation.md). Premium proposes how many
 * contracts of which visible signals maximise expected P&L within the risk model's limits
 * (POST /api/portfolio/optimise): the limits used, the positions with each one's checked
 * chance and its source, the totals with net delta and vega before → after against their
 * bounds, and the signals left out with the reason. A proposal only: nothing is bought until
 * "Send as orders" sends each position as a market order for the current account, after a
 * confirmation (POST /api/orders/proposal; docs/execution.md). Other plans see it locked;
 * `unlocked` is the server's word (`capabilities`).
 */
export function OptimiserCard({ unlocked }: { unlocked: boolean }) {
  if (!unlocked) {
    return (
      <LockedFeature title="Portfolio optimiser" plan="Premium" testId="optimiser-locked" heading="h2">
        The portfolio optimiser is part of Premium: it proposes how many contracts of which signals you can see would make the most on
        average while your book stays within your risk limits (budget, position size, per symbol and strategy, net delta and vega).
      </LockedFeature>
    );
  }
  return <Optimiser />;
}
