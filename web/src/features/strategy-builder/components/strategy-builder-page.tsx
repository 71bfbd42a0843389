import { LayersIcon, Loader2Icon, RefreshCwIcon } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { CopyButton } from "@/components/copy-button";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { QueryError, QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage, rateLimited } from "@/lib/api/client";
import { EXERCISE_STYLES } from "@/lib/api/enums";
import { useSaveHeldStructure } from "@/lib/api/held-structures";
import type { ExerciseStyle, NewHeldStructure, TemplateName } from "@/lib/api/models";
import type { ChainPick } from "@/lib/options";
import { todayIso } from "@/lib/calendar";
import { formatContractPrice } from "@/lib/format";
import { toast } from "@/lib/toast";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { useBuildTemplate, useStructureAnalysis, useTrackedStocks } from "../api/structures";
import {
  type BuilderState,
  decodeState,
  defaultStructureName,
  draftFromPick,
  draftOf,
  EMPTY_STATE,
  encodeState,
  fieldPath,
  type LegDraft,
  type LegErrors,
  MAX_LEGS,
  requestOf,
  SHIFT_POINTS_LIMIT,
} from "../lib/builder";
import { isTemplateName, TEMPLATE_GROUPS, TEMPLATE_LABELS } from "../lib/templates";
import { AnalysisResults } from "./analysis-results";
import { LegsEditor } from "./legs-editor";
import { StrategyBuilderLocked } from "./locked";
import { type ChainPickerSlot, PickFromChain } from "./pick-from-chain";
import { PORTFOLIO_PATH, SaveToPortfolio } from "./save-to-portfolio";

/** How long the builder waits after the last edit before it analyses. */
export const ANALYSIS_DEBOUNCE_MS = 400;

const EXERCISE_LABELS: Record<ExerciseStyle, string> = { american: "American", european: "European" };

/** The server's field errors of a refused request, by leg and by top-level field. */
function serverErrors(error: unknown, legCount: number): { legs: LegErrors[]; fields: Record<string, string> } {
  const legs: LegErrors[] = Array.from({ length: legCount }, () => ({}));
  const fields: Record<string, string> = {};
  if (!(error instanceof ApiError)) return { legs, fields };
  for (const { field, message } of error.fieldErrors) {
    const path = fieldPath(field);
    if ("leg" in path && legs[path.leg]) {
      const key = (path.field || "quantity") as keyof LegErrors;
      legs[path.leg][key] = message;
    } else fields[path.field] = message;
  }
  return { legs, fields };
}

/** What a refused save says beside its button: the fields no input shows, else the server's reason. */
function saveErrorText(error: unknown, shown: (field: string) => boolean): string {
  if (error instanceof ApiError && error.status === 422 && error.fieldErrors.length > 0) {
    const rest = error.fieldErrors.filter((f) => !shown(f.field));
    return rest.length > 0 ? rest.map((f) => f.message).join(" ") : "The position was not saved: check the marked fields.";
  }
  return errorMessage(error, "The position could not be saved. Try again.");
}

function retryAfter(error: unknown): string | null {
  const limited = rateLimited(error);
  if (!limited) return null;
  return limited.retryAfter !== null ? `Too many analyses: try again in ${limited.retryAfter} s.` : "Too many analyses: try again shortly.";
}

function ResultsSkeleton() {
  return (
    <div className="grid gap-4">
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-72 w-full" />
    </div>
  );
}

/** The Premium builder: the position's inputs, then its analysis (re-run as the inputs change). */
function Builder({ chainPicker }: { chainPicker?: ChainPickerSlot }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const [state, setState] = useState<BuilderState>(() => decodeState(params.get("s")) ?? EMPTY_STATE);
  const [template, setTemplate] = useState<TemplateName>("iron-condor");
  const [contracts, setContracts] = useState("1");
  const stocks = useTrackedStocks();
  const buildTemplate = useBuildTemplate();
  // The template the legs came from, while they are exactly as it built them (any edit makes a new list).
  const [fromTemplate, setFromTemplate] = useState<{ name: TemplateName; legs: LegDraft[] } | null>(null);
  const [saveName, setSaveName] = useState("");
  const save = useSaveHeldStructure();

  // No symbol yet (a fresh visit): the first tracked stock.
  const symbol = state.symbol || stocks.data?.[0]?.symbol || "";
  const current = useMemo(() => ({ ...state, symbol }), [state, symbol]);
  const debounced = useDebouncedValue(current, ANALYSIS_DEBOUNCE_MS);
  const built = useMemo(() => requestOf(debounced), [debounced]);
  const request = built && "request" in built ? built.request : null;
  const analysis = useStructureAnalysis(request);
  const spot = stocks.data?.find((s) => s.symbol === symbol)?.currentPrice;

  // The address always holds the position, so a reload or a copied address restores it.
  const encoded = useMemo(() => (debounced.symbol ? encodeState(debounced) : ""), [debounced]);
  useEffect(() => {
    if (!encoded || params.get("s") === encoded) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set("s", encoded);
        return next;
      },
      { replace: true },
    );
  }, [encoded, params, setParams]);
  const shareUrl = `${window.location.origin}/strategy-builder?s=${encodeState(current)}`;

  const update = (patch: Partial<BuilderState>) => setState((s) => ({ ...s, symbol: s.symbol || symbol, ...patch }));
  const localErrors = built && "legErrors" in built ? built.legErrors : [];
  const server = serverErrors(analysis.isError ? analysis.error : null, state.legs.length);

  // Saving sends the legs on screen now (not the debounced ones the analysis has).
  const savedTemplate = fromTemplate && fromTemplate.legs === state.legs ? fromTemplate.name : undefined;
  const now = useMemo(() => requestOf(current), [current]);
  const saveBody: NewHeldStructure | null =
    now && "request" in now
      ? {
          symbol: now.request.symbol,
          legs: now.request.legs,
          exercise: now.request.exercise,
          ...(savedTemplate ? { template: savedTemplate } : {}),
          ...(saveName.trim() ? { name: saveName.trim() } : {}),
        }
      : null;
  // The last save's answer stays on screen only while it is about this very position.
  const saveCurrent = saveBody !== null && save.variables !== undefined && JSON.stringify(save.variables) === JSON.stringify(saveBody);
  const saveError = saveCurrent && save.isError ? save.error : null;
  const saved = serverErrors(saveError, state.legs.length);
  const legErrors = state.legs.map((_, i) => ({ ...server.legs[i], ...saved.legs[i], ...localErrors[i] }));
  const symbolError = server.fields.symbol ?? saved.fields.symbol;
  const savePosition = () => {
    if (!saveBody) return;
    save.mutate(saveBody, {
      onSuccess: () =>
        toast({
          title: "Saved to your portfolio",
          description: (
            <Link to={PORTFOLIO_PATH} className="font-medium underline underline-offset-4">
              View portfolio
            </Link>
          ),
        }),
    });
  };

  // A contract picked on the chain: one more leg, on the symbol the chain was opened for.
  const addPicked = (pick: ChainPick) =>
    setState((s) => (s.legs.length >= MAX_LEGS ? s : { ...s, symbol: s.symbol || pick.symbol, legs: [...s.legs, draftFromPick(pick)] }));

  const loadTemplate = (name: TemplateName, forSymbol: string) => {
    const count = Number(contracts);
    buildTemplate.mutate(
      {
        symbol: forSymbol,
        template: name,
        exercise: state.exercise,
        ...(Number.isInteger(count) && count >= 1 ? { contracts: count } : {}),
      },
      {
        onSuccess: (answer) => {
          const legs = answer.legs.map(draftOf);
          setState((s) => ({ ...s, symbol: forSymbol, legs, horizonDate: "" }));
          setFromTemplate({ name: answer.template, legs });
        },
      },
    );
  };

  const analysedLegs = analysis.data && !analysis.isPlaceholderData ? analysis.data.legs : undefined;
  const firstExpiry = state.legs
    .filter((l) => l.instrument !== "stock" && l.expirationDate)
    .map((l) => l.expirationDate)
    .sort()[0];

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <section aria-labelledby={`${id}-position`} className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <h2 id={`${id}-position`} className="text-lg font-semibold">
          Position
        </h2>
        <Card>
          <CardContent className="grid gap-5 pt-6">
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <div className="grid content-start gap-1.5">
                <Label htmlFor={`${id}-symbol`}>Symbol</Label>
                {stocks.isError ? (
                  <QueryError title="Failed to load the tracked stocks" onRetry={() => void stocks.refetch()} />
                ) : (
                  <NativeSelect
                    id={`${id}-symbol`}
                    value={symbol}
                    disabled={stocks.isPending}
                    aria-invalid={Boolean(symbolError) || undefined}
                    aria-describedby={`${id}-symbol-message`}
                    onChange={(e) => update({ symbol: e.target.value, legs: [] })}
                  >
                    {stocks.isPending ? <option value="">Loading…</option> : null}
                    {/* A shared link's symbol no longer tracked stays listed, so the select shows it. */}
                    {symbol && stocks.data && !stocks.data.some((s) => s.symbol === symbol) ? (
                      <option value={symbol}>{symbol}</option>
                    ) : null}
                    {stocks.data?.map((s) => (
                      <option key={s.symbol} value={s.symbol}>
                        {s.symbol} · {s.companyName}
                      </option>
                    ))}
                  </NativeSelect>
                )}
                <p
                  id={`${id}-symbol-message`}
                  className={cn("text-[0.8rem]", symbolError ? "font-medium text-destructive-strong" : "text-muted-foreground")}
                >
                  {symbolError ??
                    (spot !== undefined ? `Last ${formatContractPrice(spot)}. Changing it clears the legs.` : "A tracked stock.")}
                </p>
              </div>
              <div className="grid content-start gap-1.5 sm:col-span-2 lg:col-span-2">
                <Label htmlFor={`${id}-template`}>Template</Label>
                <div className="flex flex-wrap gap-2">
                  <NativeSelect
                    id={`${id}-template`}
                    className="min-w-0 flex-[1_1_12rem]"
                    value={template}
                    onChange={(e) => isTemplateName(e.target.value) && setTemplate(e.target.value)}
                  >
                    {TEMPLATE_GROUPS.map((group) => (
                      <optgroup key={group.label} label={group.label}>
                        {group.templates.map((t) => (
                          <option key={t} value={t}>
                            {TEMPLATE_LABELS[t]}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </NativeSelect>
                  <div className="flex items-center gap-2">
                    <Label htmlFor={`${id}-contracts`} className="sr-only">
                      Number of structures (contracts each leg)
                    </Label>
                    <Input
                      id={`${id}-contracts`}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      value={contracts}
                      onChange={(e) => setContracts(e.target.value)}
                      className="w-20 tabular"
                      aria-describedby={`${id}-template-message`}
                    />
                    <Button type="button" onClick={() => loadTemplate(template, symbol)} disabled={!symbol || buildTemplate.isPending}>
                      {buildTemplate.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : null}
                      Use template
                    </Button>
                  </div>
                </div>
                <p
                  id={`${id}-template-message`}
                  className={cn("text-[0.8rem]", buildTemplate.isError ? "font-medium text-destructive-strong" : "text-muted-foreground")}
                  role={buildTemplate.isError ? "alert" : undefined}
                >
                  {buildTemplate.isError
                    ? errorMessage(buildTemplate.error, "The template could not be built. Try again.")
                    : "Replaces the legs: strikes around the price, the first expiry at least 21 days away, premiums at the model's price. The number is how many of the structure (contracts)."}
                </p>
              </div>
              <fieldset className="grid content-start gap-1.5">
                <legend className="mb-1.5 text-sm font-medium">Exercise</legend>
                <div className="inline-flex w-fit rounded-md border p-0.5">
                  {EXERCISE_STYLES.map((style) => (
                    <label
                      key={style}
                      className={cn(
                        "cursor-pointer rounded px-3 py-1.5 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                        state.exercise === style ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:text-foreground",
                      )}
                    >
                      <input
                        type="radio"
                        name={`${id}-exercise`}
                        value={style}
                        checked={state.exercise === style}
                        onChange={() => update({ exercise: style })}
                        className="sr-only"
                      />
                      {EXERCISE_LABELS[style]}
                    </label>
                  ))}
                </div>
                <p className="text-[0.8rem] text-muted-foreground">US equity options are American.</p>
              </fieldset>
            </div>
          </CardContent>
        </Card>
        <section aria-labelledby={`${id}-legs`} className="grid gap-3">
          <h3 id={`${id}-legs`} className="text-base font-semibold">
            Legs
          </h3>
          <LegsEditor
            legs={state.legs}
            errors={legErrors}
            analysed={analysedLegs}
            onChange={(legs) => update({ legs })}
            actions={
              chainPicker ? (
                <PickFromChain symbol={symbol} legCount={state.legs.length} onPick={addPicked} chainPicker={chainPicker} />
              ) : null
            }
          />
        </section>
        <Card>
          <CardContent className="grid gap-4 pt-6 sm:grid-cols-2 lg:grid-cols-3">
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-horizon`}>Horizon date</Label>
              <Input
                id={`${id}-horizon`}
                type="date"
                min={todayIso()}
                max={firstExpiry}
                value={state.horizonDate}
                onChange={(e) => update({ horizonDate: e.target.value })}
                aria-invalid={Boolean(server.fields.horizonDate) || undefined}
                aria-describedby={`${id}-horizon-message`}
              />
              <p
                id={`${id}-horizon-message`}
                className={cn("text-[0.8rem]", server.fields.horizonDate ? "font-medium text-destructive-strong" : "text-muted-foreground")}
              >
                {server.fields.horizonDate ??
                  "The dashed line, the Greeks and the scenarios: today when empty, at the latest the first expiry."}
              </p>
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={`${id}-shift`}>
                Volatility shift:{" "}
                <span className="tabular">
                  {state.shiftPoints > 0 ? "+" : ""}
                  {state.shiftPoints} pts
                </span>
              </Label>
              <input
                id={`${id}-shift`}
                type="range"
                min={-SHIFT_POINTS_LIMIT}
                max={SHIFT_POINTS_LIMIT}
                step={1}
                value={state.shiftPoints}
                onChange={(e) => update({ shiftPoints: Number(e.target.value) })}
                aria-valuetext={`${state.shiftPoints} volatility points`}
                aria-invalid={Boolean(server.fields.volatilityShift) || undefined}
                aria-describedby={`${id}-shift-message`}
                className="h-10 w-full accent-primary"
              />
              <p
                id={`${id}-shift-message`}
                className={cn(
                  "text-[0.8rem]",
                  server.fields.volatilityShift ? "font-medium text-destructive-strong" : "text-muted-foreground",
                )}
              >
                {server.fields.volatilityShift ?? "Added to every leg's implied volatility for the dashed line and the Greeks."}
              </p>
            </div>
            <div className="grid content-start gap-1.5 sm:col-span-2 lg:col-span-1">
              <span className="text-sm font-medium">Share</span>
              <div className="flex flex-wrap items-center gap-2">
                <CopyButton text={shareUrl} label="link to this position" />
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => void analysis.refetch()}
                  disabled={!request || analysis.isFetching}
                >
                  <RefreshCwIcon aria-hidden />
                  Analyse again
                </Button>
              </div>
              <p className="text-[0.8rem] text-muted-foreground">The link opens this builder with the same position.</p>
            </div>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby={`${id}-analysis`} className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${id}-analysis`} className="text-lg font-semibold">
            Analysis
          </h2>
          <p role="status" aria-live="polite" className="inline-flex items-center gap-2 text-sm text-muted-foreground">
            {request && analysis.isFetching ? (
              <>
                <Loader2Icon className="size-4 animate-spin" aria-hidden />
                Analysing…
              </>
            ) : null}
          </p>
        </div>
        {saveBody ? (
          <SaveToPortfolio
            name={saveName}
            onNameChange={setSaveName}
            placeholder={defaultStructureName(saveBody.symbol, savedTemplate, saveBody.legs.length)}
            onSave={savePosition}
            pending={save.isPending}
            nameError={saved.fields.name}
            error={
              saveError ? saveErrorText(saveError, (field) => field === "name" || field === "symbol" || "leg" in fieldPath(field)) : null
            }
            savedAs={saveCurrent && save.isSuccess ? save.data.name : null}
          />
        ) : null}
        {!request ? (
          localErrors.length > 0 ? (
            <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground" data-testid="analysis-waiting">
              Complete the marked leg fields to analyse the position.
            </p>
          ) : (
            <EmptyState
              icon={LayersIcon}
              title="No legs yet"
              description="Choose a template (an iron condor, a straddle, a spread…) or add legs one by one; the analysis follows every change."
            />
          )
        ) : (
          <div
            className={cn("transition-opacity", analysis.isPlaceholderData && "opacity-60")}
            aria-busy={analysis.isFetching || undefined}
          >
            <QueryState
              query={analysis}
              loadingLabel="Analysing the position"
              showLoadingLabel
              skeleton={<ResultsSkeleton />}
              errorTitle={(error) =>
                error instanceof ApiError && error.status === 422 ? "The position was refused" : "The analysis failed"
              }
              errorDetail={(error) =>
                retryAfter(error) ??
                (error instanceof ApiError && error.status === 422 && error.fieldErrors.length > 0
                  ? error.fieldErrors.map((f) => `${f.field}: ${f.message}`).join(" ")
                  : errorMessage(error, "Check the legs and try again."))
              }
              errorLayout="banner"
            >
              {(data) => <AnalysisResults analysis={data} />}
            </QueryState>
          </div>
        )}
      </section>
    </div>
  );
}

/**
 * The strategy builder (/strategy-builder): a multi-leg position on a tracked stock, from a
 * template, leg by leg or picked from the option chain (`chainPicker`, the market's chain the
 * app hands in), analysed at its first expiry and at a horizon date. Premium only: others see
 * it locked, and no request is made to /api/structures.
 */
export function StrategyBuilderPage({ unlocked, chainPicker }: { unlocked: boolean; chainPicker?: ChainPickerSlot }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader
        title="Strategy builder"
        description="Build a multi-leg options position and see its payoff, breakevens, probability of profit, Greeks and scenarios."
      />
      {unlocked ? <Builder chainPicker={chainPicker} /> : <StrategyBuilderLocked />}
    </div>
  );
}
