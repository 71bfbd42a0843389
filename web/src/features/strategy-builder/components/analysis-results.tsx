import { PayoffChart } from "@/components/charts/payoff-chart";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ExtremeView, StructureAnalysis } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import {
  formatContractPrice,
  formatCurrency,
  formatFractionPercent,
  formatRatio,
  formatSignedCurrency,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { cn } from "@/lib/utils";

/** A maximum profit or loss: "Unlimited", or the amount and where it is reached. */
function extreme(view: ExtremeView): { value: string; where: string | null } {
  if (view.unbounded || view.pnl === null || view.pnl === undefined) return { value: "Unlimited", where: "as the price rises" };
  const where =
    view.spot === null || view.spot === undefined
      ? "approached as the price rises"
      : view.spot === 0
        ? "as the price falls to zero"
        : `at ${formatContractPrice(view.spot)}`;
  return { value: formatSignedCurrency(view.pnl), where };
}

function Fact({
  label,
  value,
  detail,
  testId,
  className,
}: {
  label: string;
  value: string;
  detail?: string | null;
  testId?: string;
  className?: string;
}) {
  return (
    <div className="grid content-start gap-0.5 rounded-lg border bg-card/50 p-3" data-testid={testId}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn("text-lg font-semibold tabular", className)}>{value}</dd>
      {detail ? <dd className="text-xs text-muted-foreground">{detail}</dd> : null}
    </div>
  );
}

const shiftLabel = (shift: number) => {
  const points = Math.round(shift * 100);
  return points === 0 ? "±0 pts" : `${points > 0 ? "+" : "−"}${Math.abs(points)} pts`;
};

/** The scenario grid: P&L at the horizon date, prices (rows) × volatility shifts (columns). */
function ScenarioTable({ analysis }: { analysis: StructureAnalysis }) {
  const { spots, volatilityShifts, pnl } = analysis.scenarios;
  const nearest = spots.reduce((best, s, i) => (Math.abs(s - analysis.spot) < Math.abs(spots[best] - analysis.spot) ? i : best), 0);
  return (
    <div className="relative overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-labelledby="scenario-caption">
      <table className="w-full min-w-max border-collapse text-right text-sm tabular" data-testid="scenario-grid">
        <caption id="scenario-caption" className="px-3 py-2 text-left text-xs text-muted-foreground">
          P&amp;L of the position on {formatShortDate(analysis.horizonDate)} by the stock's price (rows) and a change of every leg's implied
          volatility (columns, in volatility points). Gains start with +, losses with −.
        </caption>
        <thead>
          <tr className="border-b bg-muted/40">
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Price
            </th>
            {volatilityShifts.map((v) => (
              <th key={v} scope="col" className={cn("px-3 py-2 font-medium", Math.abs(v) < 1e-9 && "underline underline-offset-4")}>
                <span className="sr-only">Volatility </span>
                {shiftLabel(v)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {spots.map((s, i) => (
            <tr key={s} className={cn("border-b last:border-0", i === nearest && "bg-muted/40")}>
              <th scope="row" className="px-3 py-1.5 text-left font-medium">
                {formatContractPrice(s)}
                {i === nearest ? <span className="ml-1 text-xs font-normal text-muted-foreground">(now)</span> : null}
              </th>
              {volatilityShifts.map((v, j) => {
                const value = pnl[i]?.[j];
                const sign = signOf(value);
                return (
                  <td
                    key={v}
                    className={cn(
                      "px-3 py-1.5",
                      SIGN_TEXT_CLASS[sign],
                      sign === "positive" && "bg-positive/10",
                      sign === "negative" && "bg-destructive/10",
                    )}
                  >
                    {formatSignedCurrency(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An analysis: the figures at expiry, the payoff chart, the Greeks and the scenario grid. */
export function AnalysisResults({ analysis }: { analysis: StructureAnalysis }) {
  const { atExpiry, greeks } = analysis;
  const maxProfit = extreme(atExpiry.maxProfit);
  const maxLoss = extreme(atExpiry.maxLoss);
  const debit = analysis.netPremium >= 0;
  const horizon = `At ${formatShortDate(analysis.horizonDate)}`;
  const payoff = analysis.payoff.map((p) => ({ price: p.spot, expiry: p.atExpiry, today: p.atHorizon }));
  const breakevens = atExpiry.breakevens.length > 0 ? atExpiry.breakevens.map((b) => formatContractPrice(b)).join(", ") : "None";
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="analysis-results">
      <Card>
        <CardHeader>
          <CardTitle>At the first expiry ({formatShortDate(analysis.firstExpiration)})</CardTitle>
          <CardDescription>
            {analysis.symbol} at {formatContractPrice(analysis.spot)}, volatility estimate {formatFractionPercent(analysis.volatility, 1)},{" "}
            {analysis.exercise === "american" ? "American" : "European"} exercise. Amounts are for the whole position.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <Fact
              label={debit ? "Net debit" : "Net credit"}
              value={formatCurrency(Math.abs(analysis.netPremium))}
              detail={debit ? "paid to open" : "received to open"}
              testId="net-premium"
            />
            <Fact
              label="Max profit"
              value={maxProfit.value}
              detail={maxProfit.where}
              testId="max-profit"
              className={SIGN_TEXT_CLASS[atExpiry.maxProfit.unbounded ? "positive" : signOf(atExpiry.maxProfit.pnl)]}
            />
            <Fact
              label="Max loss"
              value={maxLoss.value}
              detail={maxLoss.where}
              testId="max-loss"
              className={SIGN_TEXT_CLASS[atExpiry.maxLoss.unbounded ? "negative" : signOf(atExpiry.maxLoss.pnl)]}
            />
            <Fact
              label={atExpiry.breakevens.length === 1 ? "Breakeven" : "Breakevens"}
              value={breakevens}
              testId="breakevens"
              className="text-base"
            />
            <Fact
              label="Probability of profit"
              value={formatFractionPercent(atExpiry.probabilityOfProfit, 1)}
              detail="risk-neutral, at expiry"
              testId="probability-of-profit"
            />
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Payoff</CardTitle>
          <CardDescription>
            P&amp;L at the first expiry (solid) and on {formatShortDate(analysis.horizonDate)}
            {analysis.volatilityShift !== 0 ? ` with volatility ${shiftLabel(analysis.volatilityShift)}` : ""} (dashed).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <PayoffChart
            payoff={payoff}
            breakevens={atExpiry.breakevens}
            currentPrice={analysis.spot}
            subject="of the position"
            secondLine={horizon}
            height={280}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Greeks</CardTitle>
          <CardDescription>The whole position on {formatShortDate(analysis.horizonDate)}.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="greeks">
            <Fact label="Delta" value={formatRatio(greeks.delta)} detail="shares; $ per $1 move" />
            <Fact label="Gamma" value={formatRatio(greeks.gamma, 4)} detail="delta per $1 move" />
            <Fact label="Vega" value={formatSignedCurrency(greeks.vega)} detail="per volatility point" />
            <Fact label="Theta" value={formatSignedCurrency(greeks.theta)} detail="per calendar day" />
            <Fact label="Rho" value={formatSignedCurrency(greeks.rho)} detail="per rate point" />
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Scenarios</CardTitle>
          <CardDescription>Price × volatility on {formatShortDate(analysis.horizonDate)}.</CardDescription>
        </CardHeader>
        <CardContent>
          <ScenarioTable analysis={analysis} />
        </CardContent>
      </Card>
    </div>
  );
}
