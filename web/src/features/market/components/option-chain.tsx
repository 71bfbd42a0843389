import { TableIcon } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { QueryState } from "@/components/query-state";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { ChainRow, ExerciseStyle, OptionChainView } from "@/lib/api/models";
import { todayIso } from "@/lib/calendar";
import { formatDateTime, formatShortDate } from "@/lib/dates";
import { formatContractPrice } from "@/lib/format";
import { type ChainPick, type ChainPickerProps, describePick, type OptionRight } from "@/lib/options";
import { useMediaQuery } from "@/lib/use-media-query";
import { cn } from "@/lib/utils";
import { chainRetryText, useOptionChain } from "../api/get-option-chain";
import {
  atTheMoneyStrike,
  type ChainColumn,
  expirationLabel,
  formatQuote,
  inTheMoney,
  pickOf,
  providerName,
  sideColumns,
} from "../lib/option-chain";

/** Choosing quotes: each bid or ask is a button that hands its contract to `onPick`. */
export type ChainPicking = {
  onPick: (pick: ChainPick) => void;
  /** Picks are refused (the position is full); the buttons stay, disabled. */
  disabled?: boolean;
};

const RIGHTS: readonly OptionRight[] = ["call", "put"];
const SIDE_LABELS: Record<OptionRight, string> = { call: "Calls", put: "Puts" };
const RIGHT_LABELS: Record<OptionRight, string> = { call: "Call", put: "Put" };
const EXERCISE_LABELS: Record<ExerciseStyle, string> = { american: "American", european: "European" };

function chainErrorTitle(symbol: string) {
  return (error: unknown) => {
    if (!(error instanceof ApiError)) return "The option chain could not be loaded";
    if (error.status === 404) return `${symbol} is not on the watchlist`;
    if (error.status === 422) return "That expiration is not listed";
    if (error.status === 429) return "Too many option chains";
    if (error.status === 503) return "Option quotes are unavailable right now";
    return "The option chain could not be loaded";
  };
}

function chainErrorDetail(error: unknown): string {
  const retry = chainRetryText(error);
  if (retry) return retry;
  if (error instanceof ApiError && error.status === 422) return "Try again for the next listed expiration.";
  return errorMessage(error, "Check your connection and try again.");
}

function ChainSkeleton() {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-3">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-10 w-72" />
      </div>
      <div className="grid gap-1.5">
        <SkeletonRows count={8} className="h-8 w-full" />
      </div>
    </div>
  );
}

/**
 * A symbol's option chain at one expiration: the expiration select, the underlying's price,
 * when and by whom the quotes were taken, and a row per strike with its call (left) and put
 * (right). Below `md` one side shows at a time (a Calls/Puts switch); gamma, theta and vega
 * show on request. With `picking`, each bid and ask is a button (sell at the bid, buy at the ask).
 */
export function OptionChain({
  symbol,
  expiration,
  onExpirationChange,
  picking,
}: {
  symbol: string;
  /** The expiration asked for; null for the server's default (the first at least a week away). */
  expiration: string | null;
  onExpirationChange: (expiration: string | null) => void;
  picking?: ChainPicking;
}) {
  const query = useOptionChain(symbol, expiration);
  // A date the server does not list (an old link): "Try again" asks for its default instead.
  const unlisted = query.isError && query.error instanceof ApiError && query.error.status === 422 && expiration !== null;
  const state = unlisted ? { ...query, refetch: () => onExpirationChange(null) } : query;
  return (
    <QueryState
      query={state}
      loadingLabel={`Loading the ${symbol} option chain`}
      skeleton={<ChainSkeleton />}
      errorTitle={chainErrorTitle(symbol)}
      errorDetail={chainErrorDetail}
      errorLayout="panel"
      errorIcon={TableIcon}
    >
      {(chain) => (
        <ChainView
          chain={chain}
          requested={expiration}
          loading={query.isPlaceholderData && query.isFetching}
          onExpirationChange={onExpirationChange}
          picking={picking}
        />
      )}
    </QueryState>
  );
}

/**
 * The chain as a picker (the strategy builder's "Pick from chain", composed in src/app): its
 * own expiration, and each bid and ask a button that hands the contract to `onPick`.
 */
export function OptionChainPicker({ symbol, onPick, disabled }: ChainPickerProps) {
  const [expiration, setExpiration] = useState<string | null>(null);
  return <OptionChain symbol={symbol} expiration={expiration} onExpirationChange={setExpiration} picking={{ onPick, disabled }} />;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium tabular">{children}</dd>
    </div>
  );
}

/** What a table row is made of, left to right: a side's columns, or the strike. */
type Block = { kind: "strike" } | { kind: "side"; right: OptionRight; columns: ChainColumn[] };

/**
 * The table's blocks: from `md` the calls (mirrored), the strike, the puts; below it the strike
 * first and then the chosen side, bid first, so a phone shows six columns.
 */
function blocksFor(wide: boolean, side: OptionRight, greeks: boolean): Block[] {
  if (wide) {
    return [
      { kind: "side", right: "call", columns: sideColumns("call", greeks) },
      { kind: "strike" },
      { kind: "side", right: "put", columns: sideColumns("put", greeks) },
    ];
  }
  return [{ kind: "strike" }, { kind: "side", right: side, columns: sideColumns("put", greeks) }];
}

/** From this width both sides show, calls left of the strike and puts right of it. */
export const BOTH_SIDES_QUERY = "(min-width: 768px)";

function ChainView({
  chain,
  requested,
  loading,
  onExpirationChange,
  picking,
}: {
  chain: OptionChainView;
  requested: string | null;
  loading: boolean;
  onExpirationChange: (expiration: string | null) => void;
  picking?: ChainPicking;
}) {
  const id = useId();
  const wide = useMediaQuery(BOTH_SIDES_QUERY);
  const [side, setSide] = useState<OptionRight>("call");
  const [greeks, setGreeks] = useState(false);
  const today = todayIso();
  const shown = requested && chain.expirations.includes(requested) ? requested : chain.expiration;
  const atm = atTheMoneyStrike(chain.rows, chain.underlyingPrice);
  const blocks = blocksFor(wide, side, greeks);
  const sides = wide ? "calls and puts" : side === "call" ? "calls" : "puts";

  return (
    <div className="grid gap-4" data-testid="option-chain">
      <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
        <div className="grid w-full gap-1.5 sm:w-64">
          <Label htmlFor={`${id}-expiration`}>Expiration</Label>
          <NativeSelect id={`${id}-expiration`} value={shown} onChange={(e) => onExpirationChange(e.target.value)}>
            {chain.expirations.map((date) => (
              <option key={date} value={date}>
                {expirationLabel(date, today)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:flex sm:flex-wrap">
          <Fact label="Underlying">{formatContractPrice(chain.underlyingPrice)}</Fact>
          <Fact label="As of">{formatDateTime(chain.asOf)}</Fact>
          <Fact label="Provider">{providerName(chain.provider)}</Fact>
          <Fact label="Exercise">{EXERCISE_LABELS[chain.exercise]}</Fact>
        </dl>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        {wide ? null : (
          <fieldset>
            <legend className="sr-only">Contracts shown</legend>
            <div className="inline-flex rounded-md border p-0.5">
              {RIGHTS.map((right) => (
                <label
                  key={right}
                  className={cn(
                    "cursor-pointer rounded px-4 py-1.5 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                    side === right ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:text-foreground",
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-side`}
                    value={right}
                    checked={side === right}
                    onChange={() => setSide(right)}
                    className="sr-only"
                  />
                  {SIDE_LABELS[right]}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <div className="ml-auto flex items-center gap-2">
          <Switch id={`${id}-greeks`} checked={greeks} onCheckedChange={setGreeks} />
          <Label htmlFor={`${id}-greeks`} className="cursor-pointer">
            Gamma, theta, vega
          </Label>
        </div>
      </div>

      <p role="status" aria-live="polite" className="sr-only">
        {loading && requested ? `Loading the ${formatShortDate(requested)} chain` : ""}
      </p>

      {chain.rows.length === 0 ? (
        <EmptyState
          icon={TableIcon}
          title="No contracts at this expiration"
          description="The provider lists no strikes for this date. Choose another expiration."
        />
      ) : (
        <div
          className={cn(
            "relative overflow-x-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring",
            loading && "opacity-60 transition-opacity",
          )}
          tabIndex={0}
          role="region"
          aria-label={`${chain.symbol} option chain`}
          aria-busy={loading || undefined}
        >
          <table className="w-full border-collapse text-xs tabular sm:text-sm" data-testid="chain-table">
            <caption className="sr-only">
              {chain.symbol} {sides} expiring {formatShortDate(chain.expiration)}, by strike: bid, ask, implied volatility, delta and open
              interest{greeks ? ", gamma, theta and vega" : ""}. Quotes in US dollars per share.
              {picking ? " Choose an ask to buy a contract or a bid to sell one." : ""}
            </caption>
            <thead className="bg-muted/50 text-xs text-muted-foreground">
              <tr>
                {blocks.map((block) =>
                  block.kind === "strike" ? (
                    <th
                      key="strike"
                      scope="col"
                      rowSpan={2}
                      className="border-x border-b px-2 py-2 text-center font-semibold text-foreground sm:px-3"
                    >
                      Strike
                    </th>
                  ) : (
                    <th
                      key={block.right}
                      scope="col"
                      colSpan={block.columns.length}
                      className="border-b px-2 pt-2 pb-1 text-center font-semibold text-foreground"
                    >
                      {SIDE_LABELS[block.right]}
                    </th>
                  ),
                )}
              </tr>
              <tr>
                {blocks.map((block) =>
                  block.kind === "side"
                    ? block.columns.map((column) => (
                        <th
                          key={`${block.right}-${column.key}`}
                          scope="col"
                          className="border-b px-1.5 py-1.5 text-right font-medium sm:px-2"
                        >
                          <span aria-hidden title={`${RIGHT_LABELS[block.right]} ${column.long}`}>
                            {column.label}
                          </span>
                          <span className="sr-only">
                            {RIGHT_LABELS[block.right]} {column.long}
                          </span>
                        </th>
                      ))
                    : null,
                )}
              </tr>
            </thead>
            <tbody>
              {chain.rows.map((row) => (
                <ChainTableRow key={row.strike} chain={chain} row={row} atm={row.strike === atm} blocks={blocks} picking={picking} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm bg-primary" />
          At the money
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className={cn("size-3 rounded-sm border", ITM_CELL)} />
          In the money
        </span>
        <span>Quotes in US dollars per share{greeks ? "; theta per day, vega per volatility point" : ""}.</span>
      </div>
    </div>
  );
}

/** The shade of an in-the-money contract's cells (a step darker than the card in either theme). */
const ITM_CELL = "bg-foreground/[0.06]";

function ChainTableRow({
  chain,
  row,
  atm,
  blocks,
  picking,
}: {
  chain: OptionChainView;
  row: ChainRow;
  atm: boolean;
  blocks: Block[];
  picking?: ChainPicking;
}) {
  return (
    <tr className={cn("border-b last:border-b-0", atm && "bg-primary/10")} data-testid={atm ? "atm-row" : undefined}>
      {blocks.map((block) =>
        block.kind === "strike" ? (
          <th
            key="strike"
            scope="row"
            className={cn("border-x px-2 py-1.5 text-center font-semibold whitespace-nowrap sm:px-3", !atm && "bg-muted/40")}
          >
            {atm ? (
              <span className="inline-flex items-center rounded-md bg-primary px-2 py-0.5 text-primary-foreground">
                {formatQuote(row.strike)}
                <span className="sr-only"> (at the money)</span>
              </span>
            ) : (
              formatQuote(row.strike)
            )}
          </th>
        ) : (
          block.columns.map((column) => (
            <ContractCell
              key={`${block.right}-${column.key}`}
              chain={chain}
              row={row}
              right={block.right}
              column={column}
              atm={atm}
              picking={picking}
            />
          ))
        ),
      )}
    </tr>
  );
}

function ContractCell({
  chain,
  row,
  right,
  column,
  atm,
  picking,
}: {
  chain: OptionChainView;
  row: ChainRow;
  right: OptionRight;
  column: ChainColumn;
  atm: boolean;
  picking?: ChainPicking;
}) {
  const contract = row[right];
  const shaded = !atm && inTheMoney(right, row.strike, chain.underlyingPrice);
  const quote = column.key === "bid" || column.key === "ask";
  const className = cn("px-1.5 py-1.5 text-right whitespace-nowrap sm:px-2", quote && "font-medium", shaded && ITM_CELL);
  if (!contract) {
    return (
      <td className={cn(className, "text-muted-foreground")}>
        <span aria-hidden>—</span>
        <span className="sr-only">not listed</span>
      </td>
    );
  }
  const text = column.format(contract);
  const pick = picking && quote ? pickOf(chain, row, right, column.key === "ask" ? "long" : "short") : null;
  if (picking && pick) {
    return (
      <td className={cn(className, "py-1")}>
        <button
          type="button"
          disabled={picking.disabled}
          onClick={() => picking.onPick(pick)}
          aria-label={describePick(pick)}
          className={cn(
            "rounded-md border border-input bg-card px-1 py-0.5 font-medium shadow-xs transition-colors tabular sm:px-1.5",
            "hover:border-primary hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
            "disabled:cursor-not-allowed disabled:opacity-50",
          )}
        >
          {text}
        </button>
      </td>
    );
  }
  return <td className={className}>{text}</td>;
}
