import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { DatePicker } from "@/components/date-picker";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { ApiError } from "@/lib/api/client";
import { OPTION_TYPES } from "@/lib/api/enums";
import { todayIso } from "@/lib/calendar";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useCreateManualPosition } from "../api/create-manual-position";
import {
  ADD_POSITION_FIELDS,
  type AddPositionValues,
  addPositionDefaults,
  addPositionSchema,
  MAX_REASONING,
  toNewManualPosition,
} from "../lib/add-position";

/** CALL → "Call", PUT → "Put", STRADDLE → "Straddle". */
const TYPE_OPTIONS = OPTION_TYPES.map((value) => ({ value, label: value[0] + value.slice(1).toLowerCase() }));

/** Whether the server refused the input with details (problem+json field errors, or a 422). */
function hasDetails(error: unknown): boolean {
  return error instanceof ApiError && (error.fieldErrors.length > 0 || error.status === 422);
}

/**
 * The Add Manual Position dialog: symbol (sent upper-cased),
 * company, Call/Put/Straddle, strike, quantity, an expiration date from a calendar where
 * past dates are disabled (today by default), entry price, and the optional target, stop
 * loss and reasoning (left out when empty). Prices are per share in US dollars, the contract's
 * own currency, whatever the display currency (docs/currency.md); each field says so. The form keeps what was typed while the dialog
 * is closed and goes back to its defaults after a successful add.
 */
export function AddPositionDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const mutation = useCreateManualPosition();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<AddPositionValues>({
    resolver: zodResolver(addPositionSchema),
    defaultValues: addPositionDefaults(),
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(toNewManualPosition(values));
    } catch (error) {
      if (hasDetails(error)) {
        applyServerFieldErrors(error, setError, ADD_POSITION_FIELDS);
        toast({ variant: "destructive", title: "Error", description: "Please check your input data." });
      } else {
        toast({ variant: "destructive", title: "Error", description: "Failed to add position." });
      }
      return;
    }
    toast({ title: "Position Added", description: "Your manual position has been added successfully." });
    reset(addPositionDefaults());
    onOpenChange(false);
  });

  const symbol = register("symbol");
  const f = (name: string) => `${id}-${name}`;
  const pending = mutation.isPending;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>Add Manual Position</DialogTitle>
          <DialogDescription>Track your own option contracts alongside automated signals</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4" aria-label="Add manual position">
          <div className="grid gap-4 *:content-start sm:grid-cols-2">
            <FormField id={f("symbol")} label="Stock Symbol" error={errors.symbol?.message}>
              {(aria) => (
                <Input
                  placeholder="AAPL"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={10}
                  {...aria}
                  {...symbol}
                  onChange={(event) => {
                    event.target.value = event.target.value.toUpperCase();
                    void symbol.onChange(event);
                  }}
                />
              )}
            </FormField>
            <FormField id={f("company")} label="Company Name" error={errors.companyName?.message}>
              {(aria) => <Input placeholder="Apple Inc." autoComplete="off" {...aria} {...register("companyName")} />}
            </FormField>
            <FormField id={f("type")} label="Option Type" error={errors.type?.message}>
              {(aria) => (
                <NativeSelect {...aria} {...register("type")}>
                  {TYPE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <FormField id={f("strike")} label="Strike Price (USD)" error={errors.strikePrice?.message} hint="Per share, in US dollars.">
              {(aria) => (
                <Input
                  type="number"
                  inputMode="decimal"
                  step="0.01"
                  min="0.01"
                  placeholder="150.00"
                  {...aria}
                  {...register("strikePrice")}
                />
              )}
            </FormField>
            <FormField id={f("quantity")} label="Quantity" error={errors.quantity?.message} hint="Contracts of 100 shares.">
              {(aria) => <Input type="number" inputMode="numeric" step="1" min="1" {...aria} {...register("quantity")} />}
            </FormField>
            <div className="grid gap-2">
              <Label id={f("expiry-label")} htmlFor={f("expiry")}>
                Expiration Date
              </Label>
              <Controller
                control={control}
                name="expirationDate"
                render={({ field }) => (
                  <DatePicker
                    id={f("expiry")}
                    labelId={f("expiry-label")}
                    value={field.value}
                    onChange={field.onChange}
                    min={todayIso()}
                    invalid={Boolean(errors.expirationDate)}
                    describedBy={errors.expirationDate ? f("expiry-message") : undefined}
                  />
                )}
              />
              {errors.expirationDate ? (
                <p id={f("expiry-message")} className="text-[0.8rem] font-medium text-destructive-strong">
                  {errors.expirationDate.message}
                </p>
              ) : null}
            </div>
            <FormField
              id={f("entry")}
              label="Entry Price (USD)"
              error={errors.entryPrice?.message}
              hint="Premium paid per share, in US dollars."
            >
              {(aria) => (
                <Input type="number" inputMode="decimal" step="0.01" min="0.01" placeholder="3.25" {...aria} {...register("entryPrice")} />
              )}
            </FormField>
            <FormField id={f("target")} label="Target Price (USD, optional)" error={errors.targetPrice?.message}>
              {(aria) => <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...aria} {...register("targetPrice")} />}
            </FormField>
            <FormField id={f("stop")} label="Stop Loss (USD, optional)" error={errors.stopLoss?.message}>
              {(aria) => <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...aria} {...register("stopLoss")} />}
            </FormField>
          </div>
          <FormField id={f("reasoning")} label="Reasoning (optional)" error={errors.reasoning?.message}>
            {(aria) => (
              <Textarea
                className="min-h-20"
                maxLength={MAX_REASONING}
                placeholder="Why you took this trade"
                {...aria}
                {...register("reasoning")}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Adding..." : "Add Position"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
