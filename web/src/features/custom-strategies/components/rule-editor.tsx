import { AlertTriangleIcon, ListPlusIcon, PlusIcon, Trash2Icon, XIcon } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { isOneOf } from "@/lib/api/enums";
import type { IndicatorName, RuleLanguage } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { displayLabel, isIndicator, kindGroups, kindOf, NUMBER_SUFFIXES, NUMBER_UNITS } from "../lib/indicators";
import {
  type ConditionDraft,
  countComparisons,
  GROUP_MODE_LABELS,
  type GroupDraft,
  type GroupMode,
  mostBarsAgo,
  newGroup,
  newRow,
  RELATION_LABELS,
  RELATIONS,
  type Relation,
  type RowDraft,
  updateItem,
} from "../lib/rule";
import { Segmented } from "./segmented";

const MODES: readonly { value: GroupMode; label: string }[] = [
  { value: "all", label: GROUP_MODE_LABELS.all },
  { value: "any", label: GROUP_MODE_LABELS.any },
];

const isCross = (relation: Relation) => relation === "crossesAbove" || relation === "crossesBelow";

/** What every row and group reads: the language, the messages by control, the rule's size, and how to change an item. */
type Context = {
  language: RuleLanguage;
  messages: Record<string, string>;
  comparisons: number;
  update: (key: string, replace: (item: ConditionDraft) => ConditionDraft | null) => void;
  disabled: boolean;
};

function Message({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error) {
    return (
      <p id={id} className="flex items-start gap-1.5 text-[0.8rem] font-medium text-destructive-strong">
        <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="text-[0.8rem] text-muted-foreground">
      {hint}
    </p>
  ) : null;
}

function IndicatorOptions({ language }: { language: RuleLanguage }) {
  return kindGroups(language).map((group) => (
    <optgroup key={group.kind} label={group.label}>
      {group.indicators.map((info) => (
        <option key={info.name} value={info.name}>
          {displayLabel(language, info.name)}
        </option>
      ))}
    </optgroup>
  ));
}

function BarsAgoSelect({
  id,
  value,
  most,
  onChange,
  ...aria
}: {
  id: string;
  value: number;
  /** The most bars ago offered (one fewer in a cross). */
  most: number;
  onChange: (value: number) => void;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  disabled?: boolean;
}) {
  return (
    <NativeSelect id={id} value={String(value)} onChange={(e) => onChange(Number(e.target.value))} className="w-[6.5rem]" {...aria}>
      {Array.from({ length: most + 1 }, (_, n) => (
        <option key={n} value={n}>
          {n === 0 ? "This bar" : `${n} ago`}
        </option>
      ))}
    </NativeSelect>
  );
}

/** The first indicator of `name`'s kind other than `name` itself (a sensible thing to compare it with). */
function partnerOf(language: RuleLanguage, name: IndicatorName): IndicatorName {
  const kind = kindOf(language, name);
  return language.indicators.find((other) => other.name !== name && other.kind === kind)?.name ?? name;
}

/** One condition: an indicator, how it relates, and what to (another indicator or a number). */
function ConditionRow({ row, label, ctx, removable }: { row: RowDraft; label: string; ctx: Context; removable: boolean }) {
  const id = useId();
  const set = (patch: Partial<RowDraft>) => ctx.update(row.key, (item) => ({ ...(item as RowDraft), ...patch }));
  const { language } = ctx;
  const cross = isCross(row.relation);
  const most = mostBarsAgo(language, cross);
  // A name this server does not read is marked by the builder; its number reads as a price meanwhile.
  const kind = kindOf(language, row.left.name) ?? "price";
  const leftError = ctx.messages[`${row.key}:left`];
  const rightError = ctx.messages[`${row.key}:right`];
  const rowError = ctx.messages[`${row.key}:row`];
  const aria = (error: string | undefined, message: string, hint = false) => ({
    "aria-invalid": Boolean(error) || undefined,
    "aria-describedby": error || hint ? message : undefined,
    disabled: ctx.disabled,
  });
  const changeRelation = (relation: Relation) => {
    // A cross reads the bar before its operands too: one bar fewer back.
    const next = mostBarsAgo(language, isCross(relation));
    set({
      relation,
      left: { ...row.left, barsAgo: Math.min(row.left.barsAgo, next) },
      right: { ...row.right, barsAgo: Math.min(row.right.barsAgo, next) },
    });
  };
  const changeRightType = (type: "indicator" | "number") => {
    const name =
      type === "indicator" && kindOf(language, row.right.name) !== kindOf(language, row.left.name)
        ? partnerOf(language, row.left.name)
        : row.right.name;
    set({ right: { ...row.right, type, name } });
  };
  return (
    <div role="group" aria-labelledby={`${id}-label`} className="grid min-w-0 gap-2 rounded-lg border bg-card p-3" data-testid="condition">
      <div className="-mt-1 -mr-1 flex items-center justify-between gap-2">
        <span id={`${id}-label`} className="text-xs font-semibold text-muted-foreground">
          {label}
        </span>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-muted-foreground hover:text-foreground"
          onClick={() => ctx.update(row.key, () => null)}
          disabled={ctx.disabled || !removable}
          title={removable ? undefined : "A group needs at least one condition"}
        >
          <XIcon aria-hidden />
          Remove<span className="sr-only"> {label.toLowerCase()}</span>
        </Button>
      </div>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-3">
        <div className="grid min-w-0 flex-[1_1_17rem] gap-1.5">
          <div className="flex min-w-0 gap-2">
            <div className="grid min-w-0 flex-1 gap-1.5">
              <Label htmlFor={`${id}-left`} className="text-xs">
                Indicator
              </Label>
              <NativeSelect
                id={`${id}-left`}
                value={row.left.name}
                onChange={(e) => isIndicator(language, e.target.value) && set({ left: { ...row.left, name: e.target.value } })}
                {...aria(leftError, `${id}-left-message`)}
              >
                <IndicatorOptions language={language} />
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-left-bars`} className="text-xs">
                Bars ago<span className="sr-only"> (indicator)</span>
              </Label>
              <BarsAgoSelect
                id={`${id}-left-bars`}
                value={row.left.barsAgo}
                most={most}
                onChange={(barsAgo) => set({ left: { ...row.left, barsAgo } })}
                {...aria(leftError, `${id}-left-message`)}
              />
            </div>
          </div>
          <Message id={`${id}-left-message`} error={leftError} />
        </div>
        <div className="grid min-w-0 flex-[0_1_10rem] gap-1.5">
          <Label htmlFor={`${id}-relation`} className="text-xs">
            Relation
          </Label>
          <NativeSelect
            id={`${id}-relation`}
            value={row.relation}
            onChange={(e) => isOneOf(RELATIONS, e.target.value) && changeRelation(e.target.value)}
            disabled={ctx.disabled}
          >
            {RELATIONS.map((relation) => (
              <option key={relation} value={relation}>
                {RELATION_LABELS[relation]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid min-w-0 flex-[1_1_20rem] gap-1.5">
          <div className="flex min-w-0 flex-wrap gap-2">
            <div className="grid w-[7.5rem] shrink-0 gap-1.5">
              <Label htmlFor={`${id}-right-type`} className="text-xs">
                Compared with
              </Label>
              <NativeSelect
                id={`${id}-right-type`}
                value={row.right.type}
                onChange={(e) => changeRightType(e.target.value === "number" ? "number" : "indicator")}
                disabled={ctx.disabled}
              >
                <option value="indicator">Indicator</option>
                <option value="number">Number</option>
              </NativeSelect>
            </div>
            {row.right.type === "indicator" ? (
              <div className="flex min-w-0 flex-[1_1_14rem] gap-2">
                <div className="grid min-w-0 flex-1 gap-1.5">
                  <Label htmlFor={`${id}-right`} className="text-xs">
                    Other indicator
                  </Label>
                  <NativeSelect
                    id={`${id}-right`}
                    value={row.right.name}
                    onChange={(e) => isIndicator(language, e.target.value) && set({ right: { ...row.right, name: e.target.value } })}
                    {...aria(rightError, `${id}-right-message`)}
                  >
                    <IndicatorOptions language={language} />
                  </NativeSelect>
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={`${id}-right-bars`} className="text-xs">
                    Bars ago<span className="sr-only"> (compared with)</span>
                  </Label>
                  <BarsAgoSelect
                    id={`${id}-right-bars`}
                    value={row.right.barsAgo}
                    most={most}
                    onChange={(barsAgo) => set({ right: { ...row.right, barsAgo } })}
                    {...aria(rightError, `${id}-right-message`)}
                  />
                </div>
              </div>
            ) : (
              <div className="grid min-w-0 flex-[1_1_8rem] gap-1.5">
                <Label htmlFor={`${id}-right`} className="text-xs">
                  Number ({NUMBER_SUFFIXES[kind]})
                </Label>
                <Input
                  id={`${id}-right`}
                  type="number"
                  inputMode="decimal"
                  step="any"
                  value={row.right.value}
                  onChange={(e) => set({ right: { ...row.right, value: e.target.value } })}
                  className="tabular"
                  {...aria(rightError, `${id}-right-message`, true)}
                />
              </div>
            )}
          </div>
          <Message id={`${id}-right-message`} error={rightError} hint={row.right.type === "number" ? NUMBER_UNITS[kind] : undefined} />
        </div>
      </div>
      {rowError ? <Message id={`${id}-row-message`} error={rowError} /> : null}
    </div>
  );
}

/** A group's members and the buttons that add to it; `depth` 1 is the entry rule itself. */
function GroupItems({ group, depth, prefix, ctx }: { group: GroupDraft; depth: number; prefix: string; ctx: Context }) {
  // A nested group's buttons say which group they add to (the entry rule's say nothing more).
  const where = prefix ? <span className="sr-only"> to group {prefix.slice(0, -1)}</span> : null;
  const { maxGroup, maxDepth, maxConditions } = ctx.language;
  const full = group.items.length >= maxGroup;
  const capped = ctx.comparisons >= maxConditions;
  const other: GroupMode = group.mode === "all" ? "any" : "all";
  const add = (item: ConditionDraft) => ctx.update(group.key, (g) => ({ ...(g as GroupDraft), items: [...(g as GroupDraft).items, item] }));
  const groupError = ctx.messages[group.key];
  return (
    <div className="grid min-w-0 gap-3">
      {group.items.map((item, i) => {
        const label = `${prefix}${i + 1}`;
        return item.kind === "row" ? (
          <ConditionRow key={item.key} row={item} label={`Condition ${label}`} ctx={ctx} removable={group.items.length > 1} />
        ) : (
          <NestedGroup key={item.key} group={item} depth={depth + 1} label={label} ctx={ctx} />
        );
      })}
      {groupError ? (
        <p role="alert" className="flex items-start gap-1.5 text-[0.8rem] font-medium text-destructive-strong">
          <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          {groupError}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => add(newRow())} disabled={ctx.disabled || full || capped}>
          <PlusIcon aria-hidden />
          Add condition{where}
        </Button>
        {depth < maxDepth ? (
          <Button type="button" variant="outline" size="sm" onClick={() => add(newGroup(other))} disabled={ctx.disabled || full || capped}>
            <ListPlusIcon aria-hidden />
            Add group{where}
          </Button>
        ) : null}
        <p className="text-[0.8rem] text-muted-foreground">
          {group.items.length} of {maxGroup} in this group
          {full ? " (the most a group holds)" : ""}.
        </p>
      </div>
    </div>
  );
}

/** A group inside the rule: its own "All of these" / "Any of these", its members, and a way to remove it. */
function NestedGroup({ group, depth, label, ctx }: { group: GroupDraft; depth: number; label: string; ctx: Context }) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid min-w-0 gap-3 rounded-lg border border-dashed border-primary/40 bg-primary/[0.03] p-3"
      data-testid="condition-group"
    >
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="grid gap-1">
          <h4 id={`${id}-title`} className="text-xs font-semibold text-muted-foreground">
            Group {label}
          </h4>
          <Segmented
            name={`${id}-mode`}
            legend={`Group ${label} holds when`}
            legendHidden
            value={group.mode}
            options={MODES}
            onChange={(mode) => ctx.update(group.key, (g) => ({ ...(g as GroupDraft), mode }))}
            disabled={ctx.disabled}
          />
        </div>
        <Button type="button" variant="ghost" size="sm" onClick={() => ctx.update(group.key, () => null)} disabled={ctx.disabled}>
          <Trash2Icon aria-hidden />
          Remove group {label}
        </Button>
      </div>
      <GroupItems group={group} depth={depth} prefix={`${label}.`} ctx={ctx} />
    </section>
  );
}

/**
 * The entry rule: a top-level group ("All of these" or "Any of these") of conditions, with
 * groups nested inside it, within `language`'s limits (conditions in a group, depth,
 * comparisons in all) and over its indicators. `messages` are the builder's and the server's, by
 * control (`placeErrors`).
 */
export function RuleEditor({
  language,
  entry,
  onChange,
  messages,
  disabled = false,
}: {
  language: RuleLanguage;
  entry: GroupDraft;
  onChange: (entry: GroupDraft) => void;
  messages: Record<string, string>;
  disabled?: boolean;
}) {
  const id = useId();
  const comparisons = countComparisons(entry);
  const ctx: Context = {
    language,
    messages,
    comparisons,
    disabled,
    update: (key, replace) => {
      if (key === entry.key) {
        const next = replace(entry);
        if (next && next.kind === "group") onChange(next);
      } else onChange(updateItem(entry, key, replace));
    },
  };
  const ruleError = messages.entry;
  return (
    <div className="grid min-w-0 gap-3" data-testid="rule-editor">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <Segmented
          name={`${id}-mode`}
          legend="Enter when"
          value={entry.mode}
          options={MODES}
          onChange={(mode) => onChange({ ...entry, mode })}
          disabled={disabled}
        />
        <p className={cn("text-[0.8rem]", comparisons >= language.maxConditions ? "font-medium text-foreground" : "text-muted-foreground")}>
          {comparisons} of {language.maxConditions} comparisons
        </p>
      </div>
      {ruleError ? (
        <p role="alert" className="flex items-start gap-1.5 text-[0.8rem] font-medium text-destructive-strong">
          <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          {ruleError}
        </p>
      ) : null}
      <GroupItems group={entry} depth={1} prefix="" ctx={ctx} />
    </div>
  );
}
