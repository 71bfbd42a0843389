import { AlertCircleIcon, FlaskConicalIcon, InfoIcon, PlayIcon, RotateCcwIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { DownloadButton } from "@/components/download-button";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ApiError, api, errorMessage } from "@/lib/api/client";
import type { Plan } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useRunBacktest } from "../api/run-backtest";
import { useRunStrategyBacktest } from "../api/run-strategy-backtest";
import { type BacktestOptions, EMPTY_OPTIONS, optionsIssue, toBacktestRequest } from "../lib/options";
import { DEFAULT_PARAM_VALUES, type ParamErrors, paramIssues, paramKeyOfField, type ParamValues, toParamsRequest } from "../lib/params";
import { DEFAULT_SPREAD_WIDTH, spreadWidthFraction, spreadWidthIssue } from "../lib/spread";
import { BacktestOptionsFields } from "./backtest-options";
import { CustomParamsFields, ParamsUsed } from "./custom-params";
import { OverallResults } from "./overall-results";
import { SpreadFields, SpreadUsed } from "./spread-fields";
import { StrategyResults } from "./strategy-results";

export type BacktestMode = "overall" | "strategy";

/** Why a run failed, shown on the page: the server's words; for a plan limit (403) a link to the plans. */
function RunError({ error, fallback }: { error: unknown; fallback: string }) {
  const planLimit = error instanceof ApiError && error.status === 403;
  const fields = error instanceof ApiError ? error.fieldErrors : [];
  return (
    <div role="alert" className="grid gap-1.5 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm" data-testid="run-error">
      <p className="inline-flex items-center gap-2 font-medium text-destructive-strong">
        <AlertCircleIcon className="size-4 shrink-0" aria-hidden />
        {errorMessage(error, fallback)}
      </p>
      {fields.length > 0 ? (
        <ul className="grid list-disc gap-0.5 pl-6">
          {fields.map((f, i) => (
            <li key={`${f.field}-${i}`}>{f.message}</li>
          ))}
        </ul>
      ) : null}
      {planLimit ? (
        <p>
          <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            See plans and upgrade
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function Running({ label }: { label: string }) {
  return (
    <div className="grid gap-3" aria-busy="true">
      <p role="status" className="text-sm text-muted-foreground">
        {label}
      </p>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-56 w-full" />
    </div>
  );
}

function NoResults({ mode }: { mode: BacktestMode }) {
  return (
    <EmptyState
      icon={FlaskConicalIcon}
      title="No Backtest Results"
      description={
        mode === "overall"
          ? "Run a backtest to see how the signal rules would have traded on historical prices. Results are labelled backtested, never live."
          : "Run a backtest by strategy to compare Momentum, Mean Reversion, Breakout and Volatility on historical prices."
      }
    />
  );
}

function PlanNote({ plan, mode }: { plan: Plan; mode: BacktestMode }) {
  if (plan !== "free") return null;
  return (
    <p className="flex items-start gap-2 rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground">
      <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <span>
        {mode === "overall"
          ? "The Free plan runs the overall backtest over the last year; leave the dates empty for all of it."
          : "Results by strategy come with Pro."}{" "}
        <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
          Upgrade to Pro
        </Link>{" "}
        for full history and results by strategy.
      </span>
    </p>
  );
}

/**
 * /backtest: the overall and by-strategy runs, separate with separate results; optional
 * date range, symbols and strategies; 'Running...' while a run is pending; a "Backtest Complete"
 * (or "Strategy Backtest Complete") toast, or "Error" with "Failed to run backtest" (or "Failed
 * to run strategy backtest"); the server's reason in the page when the plan does not allow a run. Every result is
 * labelled "Backtested". After an overall run, "Download PDF" posts the same request to
 * POST /api/backtest/report.
 */
/**
 * `plan` decides what a run may cover (docs/decisions.md#4-plans-are-enforced-by-the-server): Free
 * overall over the last year; Pro full history and by strategy; Premium custom parameters too.
 * `multiLeg` is whether the account has multi-leg positions (the `strategyBuilder` capability of
 * the server's one entitlement check, Premium today), which trading proposals as vertical spreads
 * needs.
 */
export function BacktestPage({ plan, multiLeg }: { plan: Plan; multiLeg: boolean }) {
  const [mode, setMode] = useState<BacktestMode>("overall");
  // Empty dates let the server choose: the last year on Free, the full history otherwise.
  const defaults = EMPTY_OPTIONS;
  const [options, setOptions] = useState<BacktestOptions>(defaults);
  const [issue, setIssue] = useState<string | null>(null);
  // Premium's options, custom strategy parameters and vertical spreads: each off (the engine's
  // defaults, each proposal as proposed) until switched on.
  const premiumAllowed = plan === "premium";
  const [custom, setCustom] = useState(false);
  const [paramValues, setParamValues] = useState<ParamValues>(DEFAULT_PARAM_VALUES);
  const [paramErrors, setParamErrors] = useState<ParamErrors>({});
  const [spreads, setSpreads] = useState(false);
  const [spreadWidth, setSpreadWidth] = useState(DEFAULT_SPREAD_WIDTH);
  const [spreadError, setSpreadError] = useState<string | null>(null);
  const overall = useRunBacktest();
  const byStrategy = useRunStrategyBacktest();
  const active = mode === "overall" ? overall : byStrategy;
  const withParams = premiumAllowed && custom;
  const withSpreads = multiLeg && spreads;

  /** The server's refusal of a parameter (`params.<name>`) or of the spread width, under its input. */
  const placeParamErrors = (error: unknown) => {
    if (!(error instanceof ApiError)) return;
    const found: ParamErrors = {};
    for (const { field, message } of error.fieldErrors) {
      const key = paramKeyOfField(field);
      if (key) found[key] = message;
      if (field === "spreadWidth" && withSpreads) setSpreadError(message);
    }
    if (Object.keys(found).length > 0) setParamErrors(found);
  };

  const run = async () => {
    const problem = optionsIssue(options);
    const paramProblems = withParams ? paramIssues(paramValues) : {};
    setParamErrors(paramProblems);
    const paramsInvalid = Object.keys(paramProblems).length > 0;
    const widthProblem = withSpreads ? spreadWidthIssue(spreadWidth) : null;
    setSpreadError(widthProblem);
    setIssue(problem ?? (paramsInvalid ? "Check the custom strategy parameters." : widthProblem ? "Check the spread width." : null));
    if (problem || paramsInvalid || widthProblem) return;
    const body = toBacktestRequest(options);
    if (withParams) body.params = toParamsRequest(paramValues);
    if (withSpreads) body.spreadWidth = spreadWidthFraction(spreadWidth);
    if (mode === "overall") {
      try {
        await overall.mutateAsync(body);
        toast({ title: "Backtest Complete", description: "Overall backtest has been completed successfully" });
      } catch (error) {
        placeParamErrors(error);
        toast({ variant: "destructive", title: "Error", description: "Failed to run backtest" });
      }
    } else {
      try {
        await byStrategy.mutateAsync(body);
        toast({ title: "Strategy Backtest Complete", description: "Strategy-based backtest has been completed successfully" });
      } catch (error) {
        placeParamErrors(error);
        toast({ variant: "destructive", title: "Error", description: "Failed to run strategy backtest" });
      }
    }
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Strategy Backtesting" description="See how each strategy would have performed on historical prices." />
      <Tabs value={mode} onValueChange={(value) => setMode(value as BacktestMode)} className="grid min-w-0 gap-6">
        <Card className="min-w-0">
          <CardHeader className="gap-3 border-b pb-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="grid gap-1.5">
                <h2 className="text-base leading-tight font-semibold">Run a backtest</h2>
                <CardDescription>
                  The live signal rules replayed on historical prices, with commissions. Backtested results, not live performance.
                </CardDescription>
              </div>
            </div>
            <TabsList aria-label="Backtest view" className="w-full sm:w-auto sm:self-start">
              <TabsTrigger value="overall" className="flex-1 sm:flex-none">
                Overall Performance
              </TabsTrigger>
              <TabsTrigger value="strategy" className="flex-1 sm:flex-none">
                By Strategy
              </TabsTrigger>
            </TabsList>
          </CardHeader>
          <CardContent className="grid gap-4 pt-4">
            <PlanNote plan={plan} mode={mode} />
            <BacktestOptionsFields options={options} onChange={setOptions} disabled={active.isPending} />
            <CustomParamsFields
              allowed={premiumAllowed}
              enabled={custom}
              onEnabledChange={(on) => {
                setCustom(on);
                setParamErrors({});
              }}
              values={paramValues}
              onChange={setParamValues}
              errors={paramErrors}
              disabled={active.isPending}
            />
            <SpreadFields
              allowed={multiLeg}
              enabled={spreads}
              onEnabledChange={(on) => {
                setSpreads(on);
                setSpreadError(null);
              }}
              width={spreadWidth}
              onWidthChange={setSpreadWidth}
              error={spreadError}
              disabled={active.isPending}
            />
            {issue ? (
              <p role="alert" className="text-sm font-medium text-destructive-strong">
                {issue}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-2">
              <Button onClick={() => void run()} disabled={active.isPending}>
                <PlayIcon aria-hidden />
                {active.isPending ? "Running..." : "Run Backtest"}
              </Button>
              <Button
                variant="ghost"
                onClick={() => {
                  setOptions(defaults);
                  setIssue(null);
                  setCustom(false);
                  setParamValues(DEFAULT_PARAM_VALUES);
                  setParamErrors({});
                  setSpreads(false);
                  setSpreadWidth(DEFAULT_SPREAD_WIDTH);
                  setSpreadError(null);
                }}
                disabled={active.isPending}
              >
                <RotateCcwIcon aria-hidden />
                Reset
              </Button>
            </div>
          </CardContent>
        </Card>
        <TabsContent value="overall" className="grid min-w-0 gap-4">
          {overall.isError ? <RunError error={overall.error} fallback="Failed to run backtest" /> : null}
          {overall.isPending ? (
            <Running label="Running the overall backtest..." />
          ) : overall.data ? (
            <>
              <ParamsUsed params={overall.variables?.params} />
              <SpreadUsed spreadWidth={overall.variables?.spreadWidth} />
              <OverallResults
                result={overall.data}
                actions={
                  <DownloadButton
                    size="sm"
                    label="Download PDF"
                    // The request that produced the result shown, run again into the report.
                    request={() => api.POST("/api/backtest/report", { body: overall.variables ?? {}, parseAs: "blob" })}
                    fallbackName="backtest-report.pdf"
                    testId="download-backtest-report"
                  />
                }
              />
            </>
          ) : overall.isError ? null : (
            <NoResults mode="overall" />
          )}
        </TabsContent>
        <TabsContent value="strategy" className="grid min-w-0 gap-4">
          {byStrategy.isError ? <RunError error={byStrategy.error} fallback="Failed to run strategy backtest" /> : null}
          {byStrategy.isPending ? (
            <Running label="Running the backtest by strategy..." />
          ) : byStrategy.data ? (
            <>
              <ParamsUsed params={byStrategy.variables?.params} />
              <SpreadUsed spreadWidth={byStrategy.variables?.spreadWidth} />
              <StrategyResults results={byStrategy.data} />
            </>
          ) : byStrategy.isError ? null : (
            <NoResults mode="strategy" />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
