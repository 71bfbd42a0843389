import { Link } from "react-router";
import { DownloadButton } from "@/components/download-button";
import { QueryState } from "@/components/query-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { api } from "@/lib/api/client";
import type { Excluded, TrackRecordSummary } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { useTrackRecord } from "../api/get-track-record";
import { calibrationGroups, periodText, RISK_NEUTRAL_FORECAST, signalCount, STRENGTH_FORECAST } from "../lib/calibration";
import { CalibrationView, type Targets } from "./calibration-view";
import { PredictiveModel } from "./predictive-model";
import { VerifyRecord } from "./verify-record";

const count = new Intl.NumberFormat("en-US");

/** "n resolved live signals, resolved Sep 2, 2026 – Nov 23, 2026." for the page's header. */
function Coverage() {
  const { data } = useTrackRecord();
  if (!data) return <Skeleton className="mt-5 h-5 w-full max-w-md" aria-hidden />;
  const period = periodText(data.pooled);
  return (
    <p className="mt-5 text-sm font-medium" data-testid="coverage">
      {data.pooled.n === 0
        ? "No live signal has been resolved yet."
        : `${signalCount(data.pooled.n)}${period ? `, resolved ${period}` : ""}.`}{" "}
      <span className="font-normal text-muted-foreground">Figures as of {formatDateTime(data.generatedAt)}.</span>
    </p>
  );
}

/** What is left out of every figure, and why. */
function LeftOut({ excluded }: { excluded: Excluded }) {
  return (
    <p className="text-sm leading-relaxed text-muted-foreground" data-testid="left-out">
      <span className="font-semibold text-foreground">Left out:</span> {count.format(excluded.replayed)} replayed (recomputed from stored
      history when the server first started, not issued live), {count.format(excluded.unrecorded)} unrecorded (stored before the track
      record existed, with no outcome rule recorded at issue) and {count.format(excluded.withoutOutcome)} without an outcome (live, with no
      net outcome recorded yet).
    </p>
  );
}

function Calibrations({ summary }: { summary: TrackRecordSummary }) {
  const targets: Targets = summary;
  const groups = calibrationGroups(summary);
  return (
    <div className="grid grid-cols-1 gap-16">
      <section aria-labelledby="strength-heading" className="grid grid-cols-1 gap-6">
        <div className="max-w-3xl">
          <h2 id="strength-heading" className="text-2xl font-semibold tracking-tight">
            Strength against outcome
          </h2>
          <p className="mt-3 leading-relaxed text-muted-foreground">
            Each signal&apos;s strength ÷ 100 is taken as its forecast that the trade wins, and checked against what happened. Calibrated
            forecasts sit on the diagonal: of the signals at strength 70, about 70% won. Pick all live signals pooled or one strategy.
          </p>
        </div>
        <LeftOut excluded={summary.excluded} />
        <Tabs defaultValue={groups[0].id} className="grid grid-cols-1 gap-6">
          <TabsList aria-label="Signals to show" className="flex-wrap justify-self-start">
            {groups.map((group) => (
              <TabsTrigger key={group.id} value={group.id}>
                {group.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {groups.map((group) => (
            <TabsContent key={group.id} value={group.id}>
              <CalibrationView calibration={group.calibration} title={group.label} targets={targets} forecast={STRENGTH_FORECAST} />
            </TabsContent>
          ))}
        </Tabs>
      </section>

      <section aria-labelledby="risk-neutral-heading" className="grid grid-cols-1 gap-6" data-testid="risk-neutral">
        <div className="max-w-3xl">
          <h2 id="risk-neutral-heading" className="text-2xl font-semibold tracking-tight">
            Risk-neutral probability of profit
          </h2>
          <p className="mt-3 leading-relaxed text-muted-foreground">
            When a signal is issued, the pricing model gives the probability that its option position, held to expiry, ends in profit (under
            risk-neutral drift; a signal&apos;s details show it, now and at issue, under Three probabilities). This checks that probability
            against what happened: whether the position held to expiry did end in profit. Only live signals whose option series has expired
            count.
          </p>
        </div>
        <CalibrationView
          calibration={summary.riskNeutral}
          title="Probability of profit at issue"
          targets={targets}
          forecast={RISK_NEUTRAL_FORECAST}
        />
      </section>

      <PredictiveModel summary={summary} targets={targets} />
    </div>
  );
}

function PageSkeleton() {
  return (
    <>
      <Skeleton className="h-6 w-64" />
      <Skeleton className="h-10 w-full max-w-xl" />
      <Skeleton className="h-80 w-full" />
    </>
  );
}

/**
 * /track-record: every live call and how often each kind was right. The strength score read as
 * a probability against outcomes (pooled and per strategy), the risk-neutral probability of
 * profit against expiry, the predictive model (held out, then live), what is left out, and how
 * to check the record independently. Signed in, "Download report" saves the same figures as a
 * PDF in the account's brand (GET /api/track-record/report).
 */
export function TrackRecordPage({ signedIn = false }: { signedIn?: boolean }) {
  const query = useTrackRecord();
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
          <p className="text-sm font-semibold text-primary">Transparency</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Track record</h1>
          <p className="mt-4 max-w-3xl text-lg text-muted-foreground">
            Every call our live signals made, and how often each kind was right. Only live signals count: nothing replayed from history and
            no backtests (except the predictive model&apos;s held-out test, labelled as backtested). Each signal&apos;s strength score
            (0–100) is read as a probability, strength ÷ 100, and checked against its outcome. A win is a positive P&amp;L after slippage
            and commissions, under the exit rule stored when the signal was issued.
          </p>
          <Coverage />
          {signedIn ? (
            <div className="mt-6">
              <DownloadButton
                label="Download report"
                request={() => api.GET("/api/track-record/report", { parseAs: "blob" })}
                fallbackName="track-record-report.pdf"
                testId="download-track-record-report"
              />
            </div>
          ) : null}
        </div>
      </section>
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-16 px-4 py-12 sm:px-6 lg:px-8">
        <QueryState
          query={query}
          loadingLabel="Loading the track record"
          skeleton={<PageSkeleton />}
          errorTitle="Failed to fetch the track record"
          errorDetail="The figures are computed from the server's records when it answers."
          errorLayout="panel"
        >
          {(summary) => <Calibrations summary={summary} />}
        </QueryState>
        <VerifyRecord />
        <p className="text-sm text-muted-foreground">
          How signals are made:{" "}
          <Link to="/help/trading-guides/strategies-explained" className="font-medium text-primary underline-offset-4 hover:underline">
            the four strategies explained
          </Link>
          . Not financial advice; past results do not promise future ones.
        </p>
      </div>
    </>
  );
}
