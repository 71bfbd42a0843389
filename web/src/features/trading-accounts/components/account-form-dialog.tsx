import { zodResolver } from "@hookform/resolvers/zod";
import { TriangleAlertIcon } from "lucide-react";
import { type ComponentProps, useId, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { FormField } from "@/components/form-field";
import { StrategyCheckboxes } from "@/components/strategy-checkboxes";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Switch } from "@/components/ui/switch";
import { ApiError, errorMessage } from "@/lib/api/client";
import { RISK_TOLERANCES } from "@/lib/api/enums";
import type { TradingAccount } from "@/lib/api/models";
import { formatCurrency, riskToleranceLabel } from "@/lib/format";
import { applyServerFieldErrors } from "@/lib/forms";
import { useMoneyDisplay } from "@/lib/money-display";
import { toast } from "@/lib/toast";
import { useCreateTradingAccount, useUpdateTradingAccount } from "../api/trading-accounts";
import {
  ACCOUNT_FIELDS,
  type AccountFormValues,
  accountFormSchema,
  NEW_ACCOUNT_VALUES,
  parseAmount,
  toAccountUpdate,
  toNewAccount,
  valuesFromAccount,
} from "../lib/trading-accounts";

/**
 * The hint under an amount: it is entered in US dollars (as stored); with another display
 * currency, what the amount typed comes to in it, as the rest of the app shows it.
 */
function usdHint(text: string, showsDollars: boolean, rest = ""): string {
  const amount = parseAmount(text);
  const converted = !showsDollars && amount > 0 ? ` (about ${formatCurrency(amount)})` : "";
  return `In US dollars${converted}${rest}.`;
}

/** A refusal no field of the form answers for (the plan, the number of accounts), shown above the buttons. */
type Refusal = { reason: string; plan: boolean };

type AccountFormProps = {
  /** The account to edit; none to open a new one. */
  account: TradingAccount | null;
  onDone: () => void;
};

/** The form itself, mounted afresh each time the dialog opens so it starts from the account's values. */
function AccountForm({ account, onDone }: AccountFormProps) {
  const id = useId();
  const create = useCreateTradingAccount();
  const update = useUpdateTradingAccount();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AccountFormValues>({
    resolver: zodResolver(accountFormSchema),
    defaultValues: account ? valuesFromAccount(account) : NEW_ACCOUNT_VALUES,
  });
  const showsDollars = useMoneyDisplay().currency === "USD";
  const [capitalText, sizeText] = useWatch({ control, name: ["investmentCapital", "maxPositionSize"] });

  const onSubmit = handleSubmit(async (values) => {
    setRefusal(null);
    let saved: TradingAccount;
    try {
      saved = account
        ? await update.mutateAsync({ id: account.id, body: toAccountUpdate(values) })
        : await create.mutateAsync(toNewAccount(values));
    } catch (error) {
      const placed = applyServerFieldErrors(error, setError, ACCOUNT_FIELDS);
      const reason = errorMessage(
        error,
        account ? "Failed to save the account. Please try again." : "Failed to open the account. Please try again.",
      );
      if (!placed) setRefusal({ reason, plan: error instanceof ApiError && error.status === 403 });
      toast({ variant: "destructive", title: account ? "Account Not Saved" : "Account Not Opened", description: reason });
      return;
    }
    toast(
      account
        ? { title: "Account Saved", description: `Your changes to ${saved.name} are saved.` }
        : { title: "Account Opened", description: `${saved.name} is ready. Switch to it to work in it.` },
    );
    onDone();
  });

  const f = (name: string) => `${id}-${name}`;
  const pending = create.isPending || update.isPending;
  const strategiesError = errors.preferredStrategies?.message;
  const amountInput = { type: "number", inputMode: "decimal", step: "0.01", min: "0.01", autoComplete: "off" } as const;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
      <FormField id={f("name")} label="Name" error={errors.name?.message} hint="Such as Taxable, IRA or Paper.">
        {(aria) => <Input autoComplete="off" {...aria} {...register("name")} />}
      </FormField>

      <div className="grid gap-4 *:content-start sm:grid-cols-2">
        <FormField
          id={f("capital")}
          label="Investment capital (USD)"
          error={errors.investmentCapital?.message}
          hint={usdHint(capitalText, showsDollars)}
        >
          {(aria) => <Input {...amountInput} {...aria} {...register("investmentCapital")} />}
        </FormField>
        <FormField
          id={f("max-position")}
          label="Max position size (USD)"
          error={errors.maxPositionSize?.message}
          hint={usdHint(sizeText, showsDollars, " per position, at most the capital")}
        >
          {(aria) => <Input {...amountInput} {...aria} {...register("maxPositionSize")} />}
        </FormField>
      </div>

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
            hint="With none ticked, the automation opens no positions in this account."
          />
        )}
      />

      <Controller
        control={control}
        name="automate"
        render={({ field }) => (
          <div className="flex items-start justify-between gap-4 rounded-md border px-3 py-3">
            <div className="grid min-w-0 gap-1">
              <Label htmlFor={f("automate")} className="cursor-pointer">
                Automation
              </Label>
              <p id={f("automate-message")} className="text-[0.8rem] text-muted-foreground">
                {errors.automate?.message ?? "Open paper positions in this account from the signals that match its preferences."}
              </p>
            </div>
            <Switch
              id={f("automate")}
              ref={field.ref}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              aria-describedby={f("automate-message")}
              className="mt-0.5"
            />
          </div>
        )}
      />

      {refusal ? (
        <div role="alert" className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          <p>
            {refusal.reason}
            {refusal.plan ? (
              <>
                {" "}
                <Link to="/pricing" className="font-medium text-primary-strong underline underline-offset-4">
                  See plans
                </Link>
              </>
            ) : null}
          </p>
        </div>
      ) : null}

      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {account ? (pending ? "Saving..." : "Save changes") : pending ? "Opening..." : "Open account"}
        </Button>
      </DialogFooter>
    </form>
  );
}

type AccountFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The account to edit; null to open a new one. */
  account: TradingAccount | null;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>["onCloseAutoFocus"];
};

/**
 * Opening or editing a trading account: its name, capital, max position size, risk tolerance,
 * preferred strategies and automation switch. The rules are checked before sending; the
 * server's field errors (422, or 409 on a taken name) go under the field they name, any other
 * refusal (the plan, the number of accounts) above the buttons, and every refusal is toasted.
 */
export function AccountFormDialog({ open, onOpenChange, account, onCloseAutoFocus }: AccountFormDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto p-4 sm:p-6" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle className="break-words">{account ? `Edit ${account.name}` : "Open an account"}</DialogTitle>
            <DialogDescription>
              {account
                ? "The automation follows the changes from the next signal on."
                : "A separate account with its own capital, preferences, positions and history."}
            </DialogDescription>
          </DialogHeader>
          <AccountForm account={account} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
