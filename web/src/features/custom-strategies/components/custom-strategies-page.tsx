import { Loader2Icon, PlusIcon, SaveIcon, WandSparklesIcon } from "lucide-react";
import type * as React from "react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { BacktestRequest, CustomStrategyDocument, CustomStrategyView, FieldError, RuleLanguage } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useCustomStrategies, useRuleLanguage, useRunCustomBacktest, useSaveCustomStrategy } from "../api/custom-strategies";
import {
  buildDocument,
  draftFromDocument,
  emptyDraft,
  nameErrors,
  type Placed,
  placeErrors,
  sameDocument,
  sameDraft,
  stableJson,
  type StrategyDraft,
} from "../lib/rule";
import { draftFromTemplate, isTemplateId, type TemplateId, TEMPLATES } from "../lib/templates";
import { BacktestPanel, type BacktestResultsSlot } from "./backtest-panel";
import { DiscardChangesDialog } from "./discard-changes-dialog";
import { CustomStrategiesLocked } from "./locked";
import { RuleEditor } from "./rule-editor";
import { SavedStrategies } from "./saved-strategies";
import { TodayPanel } from "./today-panel";
import { ExitsFields, ModelFilterField, OpensFields } from "./trade-fields";

/** How long the page waits after the last valid edit before it asks what the rule says today. */
export const PREVIEW_DEBOUNCE_MS = 600;

const NOTHING_PLACED: Placed = { messages: {}, unplaced: [] };

/** The field errors of a refused request, by control, while the draft is still the one sent. */
function placedFrom(error: unknown, current: boolean, draft: StrategyDraft): Placed {
  if (!current || !(error instanceof ApiError) || error.fieldErrors.length === 0) return NOTHING_PLACED;
  return placeErrors(error.fieldErrors, draft);
}

/**
 * The server's reason when a save is refused because the user keeps the most strategies they
 * may: a 409 on the whole request (`body`), where a taken name is a 409 on `name`. Null for any
 * other answer.
 */
function capRefusal(error: unknown, language: RuleLanguage): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  if (error.fieldErrors.some((f) => f.field === "name")) return null;
  const messages = error.fieldErrors.map((f) => f.message);
  return messages[0] ?? error.problem?.detail ?? `You keep ${language.maxStrategies} custom strategies. Delete one to save another.`;
}

/** What a refused save says beside its button: what no control shows, else the server's reason. */
function saveErrorText(error: unknown, unplaced: FieldError[]): string | null {
  if (error instanceof ApiError && (error.status === 422 || error.status === 409) && error.fieldErrors.length > 0) {
    return unplaced.length > 0 ? unplaced.map((f) => f.message).join(" ") : "Not saved: check the marked fields.";
  }
  if (error instanceof ApiError && error.status === 403) return "Saving custom strategies is part of Premium.";
  return errorMessage(error, "The strategy could not be saved. Try again.");
}

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-3">
      <div className="grid gap-0.5">
        <h3 id={id} className="text-base font-semibold">
          {title}
        </h3>
        {description ? <p className="text-[0.8rem] text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** A draft that replaces the one being edited once the user agrees to lose its changes. */
type Replacement = { strategyId: string | null; draft: StrategyDraft; description: string };

/** The Premium workspace: the saved strategies, the builder, what the rule says today, and its backtest. */
function Workspace({ language, results }: { language: RuleLanguage; results?: BacktestResultsSlot }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("id");
  const strategies = useCustomStrategies();
  const [draft, setDraft] = useState<StrategyDraft>(emptyDraft);
  // Where a new (not yet saved) draft started: a blank rule or a template.
  const [baseline, setBaseline] = useState<StrategyDraft>(() => draft);
  const [replacement, setReplacement] = useState<Replacement | null>(null);
  // The saved strategy the draft was loaded from (the address names it; a reload opens it again).
  const [loadedId, setLoadedId] = useState<string | null>(null);
  const [template, setTemplate] = useState<TemplateId>(TEMPLATES[0].id);
  const [attempted, setAttempted] = useState(false);
  const [focusTick, setFocusTick] = useState(0);
  const save = useSaveCustomStrategy();
  const backtest = useRunCustomBacktest();

  const select = (strategyId: string | null, next: StrategyDraft) => {
    setLoadedId(strategyId);
    setDraft(next);
    setBaseline(next);
    setAttempted(false);
    save.reset();
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (strategyId) p.set("id", strategyId);
        else p.delete("id");
        return p;
      },
      { replace: true },
    );
  };

  // The strategy the address names, once the list has it; an id the list lacks is forgotten.
  useEffect(() => {
    if (!selectedId || loadedId === selectedId || !strategies.data) return;
    const found = strategies.data.find((s) => s.id === selectedId);
    if (found) {
      setLoadedId(found.id);
      setDraft(draftFromDocument(found.name, found.document));
    } else {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete("id");
          return p;
        },
        { replace: true },
      );
    }
  }, [selectedId, loadedId, strategies.data, setParams]);

  const editingId = selectedId && loadedId === selectedId ? selectedId : null;
  const editing: CustomStrategyView | null = strategies.data?.find((s) => s.id === editingId) ?? null;

  const built = useMemo(() => buildDocument(draft, language), [draft, language]);
  const document = built.document;
  const documentJson = document ? stableJson(document) : null;
  // The first preview waits too: a strategy named in the address replaces the blank draft first.
  const [debouncedJson, setDebouncedJson] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setDebouncedJson(documentJson), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [documentJson]);
  const previewDocument = useMemo(() => (debouncedJson ? (JSON.parse(debouncedJson) as CustomStrategyDocument) : null), [debouncedJson]);

  const input = document ? { name: draft.name.trim(), document } : null;
  const saveCurrent = input !== null && save.variables !== undefined && stableJson(save.variables.input) === stableJson(input);
  const backtestCurrent =
    documentJson !== null && backtest.variables?.customStrategy != null && stableJson(backtest.variables.customStrategy) === documentJson;

  const local = placeErrors([...built.errors, ...(attempted ? nameErrors(draft.name, language) : [])], draft);
  // The cap is said in a toast, not on the name: no name would save.
  const saveRefused = save.isError && capRefusal(save.error, language) === null ? save.error : null;
  const fromSave = placedFrom(saveRefused, saveCurrent, draft);
  const fromBacktest = placedFrom(backtest.isError ? backtest.error : null, backtestCurrent, draft);
  const messages = { ...fromBacktest.messages, ...fromSave.messages, ...local.messages };

  // After a refused save, the first marked control takes the focus.
  useEffect(() => {
    if (focusTick === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTick]);

  const dirty = editing
    ? !(editing.name === draft.name.trim() && document !== null && sameDocument(editing.document, document, language))
    : true;
  // What a switch would lose: a saved strategy's changes, or a new draft's edits since it started.
  const unsaved = editing ? dirty : !sameDraft(draft, baseline);
  const update = (patch: Partial<StrategyDraft>) => setDraft((d) => ({ ...d, ...patch }));

  /** Replaces the draft, asking first when that would lose unsaved changes. */
  const replaceDraft = (strategyId: string | null, next: StrategyDraft, description: string) => {
    if (unsaved) setReplacement({ strategyId, draft: next, description });
    else select(strategyId, next);
  };
  const current = editing ? `“${editing.name}”` : "this strategy";

  const onSave = (e: React.FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    if (!input || nameErrors(draft.name, language).length > 0) {
      setFocusTick((t) => t + 1);
      return;
    }
    save.mutate(
      { id: editingId, input },
      {
        onSuccess: (saved) => {
          toast({ title: "Strategy saved.", description: `“${saved.name}” is in your saved strategies.` });
          setLoadedId(saved.id);
          setParams(
            (prev) => {
              const p = new URLSearchParams(prev);
              p.set("id", saved.id);
              return p;
            },
            { replace: true },
          );
        },
        onError: (error) => {
          const cap = capRefusal(error, language);
          if (cap) toast({ variant: "destructive", title: "Not saved", description: cap });
          else setFocusTick((t) => t + 1);
        },
      },
    );
  };

  const runBacktest = (options: Omit<BacktestRequest, "customStrategy">) => {
    if (document) backtest.mutate({ customStrategy: document, ...options });
  };

  const templateInfo = TEMPLATES.find((t) => t.id === template);
  const nameError = messages.name;
  const saveError = saveCurrent && saveRefused ? saveErrorText(saveRefused, fromSave.unplaced) : null;
  const ranDocument = backtest.variables?.customStrategy;
  // A refused rule's marks go once it changes; any other failure stays said.
  const backtestRefused = backtest.error instanceof ApiError && backtest.error.status === 422;
  const backtestError = backtest.isError && (backtestCurrent || !backtestRefused) ? backtest.error : null;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 xl:grid-cols-[minmax(0,1fr)_21rem]">
        <SavedStrategies
          canSwitchOn
          className="xl:col-start-2 xl:row-start-1"
          selectedId={editingId}
          maxStrategies={language.maxStrategies}
          onSelect={(s) =>
            replaceDraft(
              s.id,
              draftFromDocument(s.name, s.document),
              `Your changes to ${current} are not saved: opening “${s.name}” replaces them.`,
            )
          }
          onDeleted={(gone) => {
            if (gone === editingId) select(null, emptyDraft());
          }}
          action={
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => replaceDraft(null, emptyDraft(), `Your changes to ${current} are not saved: a new strategy replaces them.`)}
            >
              <PlusIcon aria-hidden />
              New strategy
            </Button>
          }
        />
        <form
          ref={formRef}
          onSubmit={onSave}
          noValidate
          aria-labelledby={`${id}-builder`}
          className="min-w-0 xl:col-start-1 xl:row-span-2 xl:row-start-1"
          data-testid="strategy-builder-form"
        >
          <Card className="min-w-0">
            <CardHeader className="pb-4">
              <div className="flex flex-wrap items-center gap-2">
                <h2 id={`${id}-builder`} className="text-lg leading-tight font-semibold">
                  {editing ? `Editing “${editing.name}”` : "New strategy"}
                </h2>
                {editing && dirty ? <Badge variant="soft">Unsaved changes</Badge> : null}
              </div>
              <CardDescription>
                When the entry rule holds on a stock&apos;s latest daily bar, the strategy opens the contract below and closes it at the
                target, the stop or the time limit.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-7">
              <div className="grid gap-4 md:grid-cols-2">
                <div className="grid content-start gap-1.5">
                  <Label htmlFor={`${id}-name`}>Name</Label>
                  <Input
                    id={`${id}-name`}
                    value={draft.name}
                    maxLength={language.maxName}
                    autoComplete="off"
                    placeholder="e.g. Oversold bounce, tight stop"
                    onChange={(e) => update({ name: e.target.value })}
                    aria-invalid={Boolean(nameError) || undefined}
                    aria-describedby={`${id}-name-message`}
                  />
                  <p
                    id={`${id}-name-message`}
                    className={cn("text-[0.8rem]", nameError ? "font-medium text-destructive-strong" : "text-muted-foreground")}
                  >
                    {nameError ?? `${draft.name.trim().length}/${language.maxName} characters, unique among your strategies.`}
                  </p>
                </div>
                <div className="grid content-start gap-1.5">
                  <Label htmlFor={`${id}-template`}>Start from a template</Label>
                  <div className="flex flex-wrap gap-2">
                    <NativeSelect
                      id={`${id}-template`}
                      className="min-w-0 flex-[1_1_12rem]"
                      value={template}
                      onChange={(e) => isTemplateId(e.target.value) && setTemplate(e.target.value)}
                      aria-describedby={`${id}-template-message`}
                    >
                      {TEMPLATES.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.label}
                        </option>
                      ))}
                    </NativeSelect>
                    <Button
                      type="button"
                      variant="outline"
                      onClick={() =>
                        replaceDraft(
                          null,
                          draftFromTemplate(template),
                          `Your changes to ${current} are not saved: the “${templateInfo?.label ?? template}” template replaces them.`,
                        )
                      }
                    >
                      <WandSparklesIcon aria-hidden />
                      Use template
                    </Button>
                  </div>
                  <p id={`${id}-template-message`} className="text-[0.8rem] text-muted-foreground">
                    {templateInfo?.description} Starts a new strategy.
                  </p>
                </div>
              </div>

              <Section
                title="Entry rule"
                description="Indicators on the latest daily bar (or some bars before it). Compare like with like: prices with prices, 0–100 readings with 0–100 readings."
              >
                <RuleEditor language={language} entry={draft.entry} onChange={(entry) => update({ entry })} messages={messages} />
              </Section>

              <Section title="What it opens">
                <OpensFields draft={draft} language={language} onChange={update} messages={messages} />
              </Section>

              <Section title="Exits" description="On the option's premium, from the entry price.">
                <ExitsFields draft={draft} language={language} onChange={update} messages={messages} />
              </Section>

              <Section title="Model filter">
                <ModelFilterField draft={draft} onChange={update} messages={messages} />
              </Section>

              <div className="grid gap-2 border-t pt-5">
                <div className="flex flex-wrap items-center gap-3">
                  <Button type="submit" disabled={save.isPending}>
                    {save.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SaveIcon aria-hidden />}
                    {save.isPending ? "Saving…" : editing ? "Save changes" : "Save strategy"}
                  </Button>
                  {editing && !dirty ? <p className="text-sm text-muted-foreground">All changes saved.</p> : null}
                </div>
                {saveError ? (
                  <p role="alert" className="text-sm font-medium text-destructive-strong">
                    {saveError}
                  </p>
                ) : null}
              </div>
            </CardContent>
          </Card>
        </form>
        <TodayPanel document={previewDocument} complete={document !== null} className="xl:col-start-2 xl:row-start-2" />
      </div>
      <BacktestPanel
        canRun={document !== null}
        onRun={runBacktest}
        pending={backtest.isPending}
        result={backtest.data}
        error={backtestError}
        unplaced={fromBacktest.unplaced}
        stale={ranDocument != null && stableJson(ranDocument) !== documentJson}
        results={results}
      />
      <DiscardChangesDialog
        open={replacement !== null}
        onOpenChange={(open) => {
          if (!open) setReplacement(null);
        }}
        description={replacement?.description ?? ""}
        onDiscard={() => {
          if (replacement) select(replacement.strategyId, replacement.draft);
        }}
      />
    </div>
  );
}

/** The workspace's shape while the rule language loads: the builder and the saved list. */
function WorkspaceSkeleton() {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 xl:grid-cols-[minmax(0,1fr)_21rem]">
      <Skeleton className="h-[32rem] w-full rounded-xl" />
      <Skeleton className="h-48 w-full rounded-xl" />
    </div>
  );
}

/** The workspace once the server's rule language (indicators, kinds, limits) is loaded. */
function LanguageLoaded({ results }: { results?: BacktestResultsSlot }) {
  const language = useRuleLanguage();
  return (
    <QueryState
      query={language}
      loadingLabel="Loading the strategy builder"
      skeleton={<WorkspaceSkeleton />}
      errorTitle="Failed to load the strategy builder"
      errorDetail={(error) => errorMessage(error, "The indicators a rule can read could not be loaded.")}
      errorLayout="panel"
    >
      {(loaded) => <Workspace language={loaded} results={results} />}
    </QueryState>
  );
}

/**
 * Custom strategies (/custom-strategies): a Premium user's own entry rules over the indicators,
 * judged on today's bars, backtested and saved (docs/strategies.md §11). Other plans see the
 * feature locked, and still read and delete what they saved; no Premium request is made.
 * `backtestResults` shows a finished run (the app hands in the backtest screen's results).
 */
export function CustomStrategiesPage({ unlocked, backtestResults }: { unlocked: boolean; backtestResults?: BacktestResultsSlot }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader
        title="Custom strategies"
        description="Write your own entry rule over the indicators, see where it fires today, backtest it and save it."
      />
      {unlocked ? (
        <LanguageLoaded results={backtestResults} />
      ) : (
        <>
          <CustomStrategiesLocked />
          <SavedStrategies canSwitchOn={false} />
        </>
      )}
    </div>
  );
}
