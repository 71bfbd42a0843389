import { zodResolver } from "@hookform/resolvers/zod";
import { BellPlusIcon, TriangleAlertIcon } from "lucide-react";
import { type ReactNode, useId, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { errorMessage } from "@/lib/api/client";
import { ALERT_DIRECTIONS } from "@/lib/api/enums";
import type { NewPriceAlert } from "@/lib/api/models";
import { formatContractPrice } from "@/lib/format";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useCreatePriceAlert } from "../api/create-price-alert";
import { useStockPrices } from "../api/get-stock-prices";
import {
  alreadyCrossed,
  crossedWarning,
  describeAlert,
  DIRECTION_LABELS,
  PRICE_ALERT_FIELDS,
  type PriceAlertValues,
  priceAlertDefaults,
  priceAlertSchema,
  sameAlert,
  toNewPriceAlert,
} from "../lib/price-alert";

type PriceAlertFormProps = {
  /** The symbol to start with (the "Set price alert" shortcut of a stock row). */
  symbol?: string;
  /** One row from `sm` up (the card), or one field under the other (the dialog). */
  layout?: "row" | "stacked";
  /** After the alert is set (the form has been cleared). */
  onCreated?: () => void;
  /** Extra buttons next to the submit button (the dialog's Cancel). */
  actions?: ReactNode;
};

/**
 * Set a price alert: a watchlist symbol, Above or Below, and a target price in US dollars.
 * Checked with the contract's rules before sending; the server's field errors go under the
 * matching inputs; success toasts 'Price Alert Set'.
 */
export function PriceAlertForm({ symbol = "", layout = "row", onCreated, actions }: PriceAlertFormProps) {
  const id = useId();
  const mutation = useCreatePriceAlert();
  const stocks = useStockPrices().data;
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<PriceAlertValues>({ resolver: zodResolver(priceAlertSchema), defaultValues: priceAlertDefaults(symbol) });

  const watched = useWatch({ control });
  const typed = (watched.symbol ?? "").trim().toUpperCase();
  const quoteOf = (symbol: string) => (Array.isArray(stocks) ? stocks.find((s) => s.symbol === symbol) : undefined);
  const quote = quoteOf(typed);
  // An alert whose target the price has already reached waits for a second word: it would fire at
  // the next price update. Any change to the form withdraws the question.
  const [crossed, setCrossed] = useState<{ alert: NewPriceAlert; price: number } | null>(null);
  const asTyped = toNewPriceAlert({
    symbol: watched.symbol ?? "",
    direction: watched.direction ?? "above",
    targetPrice: watched.targetPrice ?? "",
  });
  const question = crossed && sameAlert(crossed.alert, asTyped) ? crossed : null;
  const createAnyway = useRef<HTMLButtonElement>(null);

  const create = async (body: NewPriceAlert) => {
    setCrossed(null);
    try {
      await mutation.mutateAsync(body);
    } catch (error) {
      const placed = applyServerFieldErrors(error, setError, PRICE_ALERT_FIELDS);
      toast({
        variant: "destructive",
        title: "Price Alert Not Set",
        description: placed
          ? "Please check the highlighted fields."
          : errorMessage(error, "Failed to set the price alert. Please try again."),
      });
      return;
    }
    toast({ title: "Price Alert Set", description: `You'll be notified when ${describeAlert(body)}.` });
    reset(priceAlertDefaults(symbol));
    onCreated?.();
  };

  const onSubmit = handleSubmit(async (values) => {
    const body = toNewPriceAlert(values);
    const price = quoteOf(body.symbol)?.currentPrice;
    // Only "Create anyway" creates it: a second click on Set Alert asks again.
    if (price !== undefined && alreadyCrossed(body, price)) {
      setCrossed({ alert: body, price });
      requestAnimationFrame(() => createAnyway.current?.focus());
      return;
    }
    await create(body);
  });

  const f = (name: string) => `${id}-${name}`;
  const symbolField = register("symbol");
  const row = layout === "row";

  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label="Set a price alert"
      className={cn("grid gap-4", row && "sm:grid-cols-[minmax(0,1fr)_8.5rem_minmax(0,1fr)_auto] sm:items-start sm:gap-3")}
    >
      <FormField id={f("symbol")} label="Symbol" error={errors.symbol?.message}>
        {(aria) => (
          <>
            <Input
              placeholder="AAPL"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={10}
              list={f("symbols")}
              // The suggestions show while typing; Chromium's extra arrow would look like a select.
              className="[&::-webkit-calendar-picker-indicator]:hidden!"
              {...aria}
              {...symbolField}
              onChange={(event) => {
                event.target.value = event.target.value.toUpperCase();
                void symbolField.onChange(event);
              }}
            />
            {Array.isArray(stocks) ? (
              <datalist id={f("symbols")}>
                {stocks.map((s) => (
                  <option key={s.symbol} value={s.symbol}>
                    {s.companyName}
                  </option>
                ))}
              </datalist>
            ) : null}
          </>
        )}
      </FormField>
      <FormField id={f("direction")} label="Direction" error={errors.direction?.message}>
        {(aria) => (
          <NativeSelect {...aria} {...register("direction")}>
            {ALERT_DIRECTIONS.map((value) => (
              <option key={value} value={value}>
                {DIRECTION_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField
        id={f("price")}
        label="Target price (USD)"
        error={errors.targetPrice?.message}
        hint={quote ? `${quote.symbol} is at ${formatContractPrice(quote.currentPrice)} now.` : undefined}
      >
        {(aria) => (
          <Input
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            placeholder="250.00"
            // Opened on a stock, the symbol is there already: the price is what is left to type.
            autoFocus={Boolean(symbol) && !row}
            {...aria}
            {...register("targetPrice")}
          />
        )}
      </FormField>
      <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", row && "sm:pt-[1.375rem]")}>
        {actions}
        <Button type="submit" disabled={mutation.isPending} className={cn(row && "sm:h-10")}>
          <BellPlusIcon aria-hidden />
          {mutation.isPending ? "Setting..." : "Set Alert"}
        </Button>
      </div>
      {question ? (
        <div
          role="alert"
          data-testid="price-alert-crossed"
          className={cn(
            "grid gap-3 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm text-foreground",
            row && "sm:col-span-full",
          )}
        >
          <p className="flex items-start gap-2">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden />
            <span>{crossedWarning(question.alert, question.price)}</span>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button ref={createAnyway} type="button" size="sm" onClick={() => void create(question.alert)} disabled={mutation.isPending}>
              Create anyway
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                setCrossed(null);
                setFocus("targetPrice");
              }}
            >
              Change target
            </Button>
          </div>
        </div>
      ) : null}
    </form>
  );
}
