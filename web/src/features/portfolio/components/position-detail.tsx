import type * as React from "react";
import { PayoffChart } from "@/components/charts/payoff-chart";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { ManualPosition, PositionDetail } from "@/lib/api/models";
import { formatDateTime, formatShortDate } from "@/lib/dates";
import {
  formatContractPrice,
  formatCurrency,
  formatFractionPercent,
  formatMoney,
  formatRatio,
  formatScore,
  NO_VALUE,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { cn } from "@/lib/utils";
import { contracts, formatGreek, portfolioPercent, portfolioSignedPercent } from "../lib/format";

function Fact({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0 rounded-lg bg-muted/50 px-3 py-2.5", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-sm font-medium break-words tabular">{children}</dd>
    </div>
  );
}

function SummaryCard({
  label,
  value,
  note,
  valueClass,
}: {
  label: string;
  value: React.ReactNode;
  note: React.ReactNode;
  valueClass?: string;
}) {
  return (
    <div className="min-w-0 rounded-lg border p-3" data-testid="detail-summary-card">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className={cn("mt-1 truncate text-lg leading-tight font-semibold tabular", valueClass)}>{value}</p>
      <p className="mt-1 truncate text-xs text-muted-foreground">{note}</p>
    </div>
  );
}

function dateText(iso: string | null | undefined): string {
  if (!iso) return NO_VALUE;
  return iso.length === 10 ? formatShortDate(iso) : formatShortDate(iso.slice(0, 10));
}

/** Current value with contracts, P&L, days held since entry, status with the signal's strength (a score out of 100). */
function DetailSummary({ detail }: { detail: PositionDetail }) {
  const sign = SIGN_TEXT_CLASS[signOf(detail.unrealizedPnl)];
  return (
    <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      <SummaryCard label="Current Value" value={formatCurrency(detail.currentValue)} note={contracts(detail.quantity)} />
      <SummaryCard
        label="P&L"
        value={formatMoney(detail.unrealizedPnl, { signed: true })}
        valueClass={sign}
        note={<span className={sign}>{portfolioSignedPercent(detail.unrealizedPnlPercent)}</span>}
      />
      <SummaryCard label="Days Held" value={String(detail.daysHeld)} note={`Since ${dateText(detail.entryDate)}`} />
      <SummaryCard
        label="Status"
        value={detail.status.toUpperCase()}
        valueClass={detail.status === "open" ? "text-positive-strong" : "text-muted-foreground"}
        note={detail.signal.confidence != null ? `Strength ${formatScore(detail.signal.confidence)}` : "Your own entry"}
      />
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="grid gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

function DetailsTab({ detail, manual }: { detail: PositionDetail; manual?: ManualPosition }) {
  const s = detail.signal;
  const sign = SIGN_TEXT_CLASS[signOf(detail.unrealizedPnl)];
  return (
    <div className="grid gap-4">
      <Section title="Contract">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Type">{s.type}</Fact>
          <Fact label="Strike Price">{formatContractPrice(s.strikePrice)}</Fact>
          <Fact label="Expiration">{dateText(s.expirationDate)}</Fact>
          <Fact label="Quantity">{contracts(detail.quantity)}</Fact>
          <Fact label="Entry Price">{formatContractPrice(detail.entryPrice)} / share</Fact>
          <Fact label="Entry Date">{dateText(detail.entryDate)}</Fact>
          <Fact label="Strategy">{s.strategy ?? "Manual"}</Fact>
          <Fact label="Status">{detail.status.toUpperCase()}</Fact>
          {manual ? (
            <Fact label="Created">{Number.isNaN(Date.parse(manual.createdAt)) ? "N/A" : formatDateTime(manual.createdAt)}</Fact>
          ) : null}
        </dl>
      </Section>
      <Section title="Current performance">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Option Price Now">{formatContractPrice(s.currentOptionPrice)}</Fact>
          <Fact label="Underlying Now">{formatContractPrice(s.currentPrice)}</Fact>
          <Fact label="Total Investment">{formatCurrency(detail.totalCost)}</Fact>
          <Fact label="Current Value">{formatCurrency(detail.currentValue)}</Fact>
          <Fact label="Unrealized P&L" className="col-span-2 sm:col-span-2">
            <span className={sign}>
              {formatMoney(detail.unrealizedPnl, { signed: true })} ({portfolioSignedPercent(detail.unrealizedPnlPercent)})
            </span>
          </Fact>
        </dl>
      </Section>
      <Section title="Plan">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Target Price">{formatContractPrice(s.targetPrice ?? manual?.targetPrice)}</Fact>
          {manual ? <Fact label="Stop Loss">{formatContractPrice(manual.stopLoss)}</Fact> : null}
        </dl>
        <div className="rounded-lg border p-3 text-sm leading-relaxed">
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Reasoning</h4>
          <p className={cn(!(s.reasoning ?? manual?.reasoning) && "text-muted-foreground")}>
            {s.reasoning ?? manual?.reasoning ?? "No reasoning recorded."}
          </p>
        </div>
      </Section>
    </div>
  );
}

const GREEKS = [
  ["delta", "Delta", "P&L change per $1 move in the underlying"],
  ["gamma", "Gamma", "Change in delta per $1 move in the underlying"],
  ["theta", "Theta", "P&L change per day from time decay"],
  ["vega", "Vega", "P&L change per 1-point rise in implied volatility"],
  ["rho", "Rho", "P&L change per 1-point rise in interest rates"],
] as const;

function GreeksTab({ detail }: { detail: PositionDetail }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">For the whole position ({contracts(detail.quantity)}).</p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {GREEKS.map(([key, label, hint]) => (
          <Fact key={key} label={label}>
            <span data-testid={`greek-${key}`}>{formatGreek(detail.greeks[key])}</span>
            <span className="mt-0.5 block text-xs font-normal text-muted-foreground">{hint}</span>
          </Fact>
        ))}
      </dl>
    </div>
  );
}

function RiskTab({ detail }: { detail: PositionDetail }) {
  const r = detail.riskMetrics;
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Max Loss">
          <span className="text-destructive-strong">{formatCurrency(Math.abs(r.maxLoss))}</span>
        </Fact>
        <Fact label="Max Gain">
          <span className="text-positive-strong" data-testid="max-gain">
            {r.maxGain == null ? "Unlimited" : formatCurrency(r.maxGain)}
          </span>
        </Fact>
        <Fact label={r.breakeven.length === 1 ? "Breakeven" : "Breakevens"}>
          {r.breakeven.length > 0 ? r.breakeven.map((b) => formatContractPrice(b)).join(" and ") : NO_VALUE}
        </Fact>
        <Fact label="Position Size">{r.positionSize == null ? NO_VALUE : `${portfolioPercent(r.positionSize)} of capital`}</Fact>
        <Fact label="Probability of Profit">{formatFractionPercent(r.probabilityOfProfit)}</Fact>
        <Fact label="Risk / Reward">{formatRatio(r.riskRewardRatio)}</Fact>
      </dl>
      <section className="grid gap-2" aria-label="Payoff">
        <h3 className="text-sm font-semibold">Payoff of the position</h3>
        <PayoffChart
          payoff={detail.payoff}
          breakevens={r.breakeven}
          currentPrice={detail.signal.currentPrice}
          subject="of the whole position"
        />
      </section>
    </div>
  );
}

function PerformanceTab({ detail }: { detail: PositionDetail }) {
  const p = detail.performance;
  const signed = (v: number | null | undefined) => <span className={SIGN_TEXT_CLASS[signOf(v)]}>{portfolioSignedPercent(v)}</span>;
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Total Return">{signed(p.totalReturn)}</Fact>
        <Fact label="Annualized Return">{signed(p.annualizedReturn)}</Fact>
        <Fact label="Daily Return">{signed(p.dailyReturn)}</Fact>
        <Fact label="Sharpe Ratio">{formatRatio(p.sharpeRatio)}</Fact>
        <Fact label="Volatility">{portfolioPercent(p.volatility)}</Fact>
      </dl>
      <p className="text-xs text-muted-foreground">&ldquo;—&rdquo; until the position has been held a full day or has enough history.</p>
    </div>
  );
}

/** A position's summary and its Details, Greeks, Risk and Performance tabs. */
export function PositionDetailBody({ detail, manual }: { detail: PositionDetail; manual?: ManualPosition }) {
  return (
    <div className="grid min-w-0 gap-4">
      <DetailSummary detail={detail} />
      <Tabs defaultValue="details" className="grid min-w-0 gap-3">
        <TabsList aria-label="Position detail sections" className="w-full justify-start sm:w-auto">
          <TabsTrigger value="details">Details</TabsTrigger>
          <TabsTrigger value="greeks">Greeks</TabsTrigger>
          <TabsTrigger value="risk">Risk</TabsTrigger>
          <TabsTrigger value="performance">Performance</TabsTrigger>
        </TabsList>
        <TabsContent value="details">
          <DetailsTab detail={detail} manual={manual} />
        </TabsContent>
        <TabsContent value="greeks">
          <GreeksTab detail={detail} />
        </TabsContent>
        <TabsContent value="risk">
          <RiskTab detail={detail} />
        </TabsContent>
        <TabsContent value="performance">
          <PerformanceTab detail={detail} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
