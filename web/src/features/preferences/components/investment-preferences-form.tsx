import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { StrategyCheckboxes } from "@/components/strategy-checkboxes";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/native-select";
import { Input } from "@/components/ui/input";
import { ApiError } from "@/lib/api/client";
import { RISK_TOLERANCES } from "@/lib/api/enums";
import type { User } from "@/lib/api/models";
import { formatCount, formatCurrency, formatPercent, NO_VALUE, riskToleranceLabel } from "@/lib/format";
import { applyServerFieldErrors } from "@/lib/forms";
import { useMoneyDisplay } from "@/lib/money-display";
import { toast } from "@/lib/toast";
import { useUpdateInvestmentPreferences } from "../api/update-investment-preferences";
import {
  allocationOf,
  type InvestmentPreferencesValues,
  investmentPreferencesSchema,
  PREFERENCE_FIELDS,
  parseAmount,
  toPreferencesUpdate,
  valuesFromUser,
} from "../lib/investment-preferences";

type StoredPreferences = Pick<User, "investmentCapital" | "maxPositionSize" | "riskTolerance" | "preferredStrategies">;

const legendClass = "mb-3 text-sm font-semibold";

/**
 * The hint under an amount: it is entered in US dollars (as stored); with another display
 * currency, what the amount typed comes to in it, as the dashboard will show it.
 */
function usdHint(text: string, showsDollars: boolean, rest = ""): string {
  const amount = parseAmount(text);
  const converted = !showsDollars && amount > 0 ? ` (about ${formatCurrency(amount)})` : "";
  return `In US dollars${converted}${rest}.`;
}

/**
 * The Investment Preferences form: capital settings, a risk
 * tolerance select, strategy checkboxes and an allocation summary. It starts from the stored
 * values; edits stay here until Save Preferences sends all four fields. The server's field
 * errors (422) are shown under their inputs, as are the same rules checked before sending.
 */
export function InvestmentPreferencesForm({ user }: { user: StoredPreferences }) {
  const id = useId();
  const mutation = useUpdateInvestmentPreferences();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<InvestmentPreferencesValues>({
    resolver: zodResolver(investmentPreferencesSchema),
    defaultValues: valuesFromUser(user),
  });

  const onSubmit = handleSubmit(async (values) => {
    let saved: User;
    try {
      saved = await mutation.mutateAsync(toPreferencesUpdate(values));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) applyServerFieldErrors(error, setError, PREFERENCE_FIELDS);
      toast({ variant: "destructive", title: "Update Failed", description: "Failed to update your preferences. Please try again." });
      return;
    }
    toast({ title: "Preferences Updated", description: "Your investment preferences have been saved successfully." });
    reset(valuesFromUser(saved));
  });

  const [capitalText, sizeText, strategies] = useWatch({
    control,
    name: ["investmentCapital", "maxPositionSize", "preferredStrategies"],
  });
  const allocation = allocationOf(parseAmount(capitalText), parseAmount(sizeText), strategies.length);
  const showsDollars = useMoneyDisplay().currency === "USD";
  const summary = [
    { label: "Maximum positions", value: allocation.maxPositions === null ? NO_VALUE : formatCount(allocation.maxPositions) },
    { label: "Risk per trade", value: allocation.riskPerTrade === null ? NO_VALUE : formatPercent(allocation.riskPerTrade) },
    { label: "Strategies", value: String(allocation.strategies) },
  ];

  const f = (name: string) => `${id}-${name}`;
  const pending = mutation.isPending;
  const strategiesError = errors.preferredStrategies?.message;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Investment preferences" className="grid gap-6 lg:grid-cols-3">
      <Card className="min-w-0 lg:col-span-2">
        <CardHeader className="border-b pb-4">
          <CardTitle>Investment Preferences</CardTitle>
          <CardDescription>Automated positions follow these from the next signal on.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-7 pt-5">
          <fieldset className="min-w-0">
            <legend className={legendClass}>Capital settings</legend>
            <div className="grid gap-4 *:content-start sm:grid-cols-2">
              <FormField
                id={f("capital")}
                label="Investment capital (USD)"
                error={errors.investmentCapital?.message}
                hint={usdHint(capitalText, showsDollars)}
              >
                {(aria) => (
                  <Input
                    type="number"
                    inputMode="decimal"
                    step="0.01"
                    min="0.01"
                    autoComplete="off"
                    {...aria}
                    {...register("investmentCapital")}
                  />
                )}
              </FormField>
              <FormField
                id={f("max-position")}
                label="Max position size (USD)"
                error={errors.maxPositionSize?.message}
                hint={usdHint(sizeText, showsDollars, " per position, at most the capital")}
              >
                {(aria) => (
                  <Input
                    type="number"
                    inputMode="decimal"
                    step="0.01"
                    min="0.01"
                    autoComplete="off"
                    {...aria}
                    {...register("maxPositionSize")}
                  />
                )}
              </FormField>
            </div>
          </fieldset>

          <FormField id={f("risk")} label="Risk tolerance" error={errors.riskTolerance?.message} className="sm:max-w-[calc(50%-0.5rem)]">
            {(aria) => (
              <NativeSelect {...aria} {...register("riskTolerance")}>
                {RISK_TOLERANCES.map((value) => (
                  <option key={value} value={value}>
                    {riskToleranceLabel(value)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>

          <Controller
            control={control}
            name="preferredStrategies"
            render={({ field }) => (
              <StrategyCheckboxes
                messageId={f("strategies-message")}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={strategiesError}
                hint="With none ticked, the automation opens no positions for you."
                legendClassName="font-semibold"
              />
            )}
          />
        </CardContent>
        <CardFooter className="justify-end border-t pt-5">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Saving..." : "Save Preferences"}
          </Button>
        </CardFooter>
      </Card>

      <Card className="self-start">
        <CardHeader className="border-b pb-4">
          <CardTitle>Allocation summary</CardTitle>
          <CardDescription>Derived from capital and position size.</CardDescription>
        </CardHeader>
        <CardContent className="pt-5">
          <dl className="grid grid-cols-3 gap-4 lg:grid-cols-1">
            {summary.map((item) => (
              <div key={item.label} className="min-w-0">
                <dt className="text-xs text-muted-foreground">{item.label}</dt>
                <dd className="mt-0.5 text-xl font-semibold tabular">{item.value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </form>
  );
}
