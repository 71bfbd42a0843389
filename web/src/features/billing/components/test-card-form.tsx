import { zodResolver } from "@hookform/resolvers/zod";
import { AlertCircleIcon, FlaskConicalIcon, LockIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api/client";
import { toast } from "@/lib/toast";
import { usePayWithTestCard } from "../api/pay-with-test-card";
import { type CardValues, cardSchema, digitsOf, formatCardNumber, formatExpiry, parseExpiry, TEST_CARDS } from "../lib/card";

/** The server's field names (TestCardPayment) and the input each is shown under. */
const SERVER_FIELDS: Record<string, keyof CardValues> = {
  cardNumber: "cardNumber",
  expMonth: "expiry",
  expYear: "expiry",
  cvc: "cvc",
};

/** A declined card: "Payment Failed" with the provider's message (toast, destructive), and the form stays. */
export const PAYMENT_FAILED = "Payment Failed";

/**
 * The built-in test provider's card form: card number (in groups of four), expiry (MM/YY) and
 * CVC, posted with the checkout's client secret. The server's field errors appear under the
 * inputs; a decline toasts 'Payment Failed' with the provider's message and keeps the form.
 */
export function TestCardForm({ clientSecret, amount, onPaid }: { clientSecret: string; amount: string; onPaid: () => void }) {
  const pay = usePayWithTestCard();
  // What the last attempt came to: a decline (nothing charged, try another card) or the server's reason.
  const [failure, setFailure] = useState<{ message: string; declined: boolean } | null>(null);
  const schema = useMemo(() => cardSchema(), []);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<CardValues>({ resolver: zodResolver(schema), defaultValues: { cardNumber: "", expiry: "", cvc: "" } });

  const onSubmit = handleSubmit(async (values) => {
    const expiry = parseExpiry(values.expiry);
    if (!expiry) return;
    setFailure(null);
    try {
      await pay.mutateAsync({
        clientSecret,
        cardNumber: digitsOf(values.cardNumber),
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: values.cvc,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) {
        const message = errorMessage(error, "Your card was declined.");
        setFailure({ message, declined: true });
        toast({ variant: "destructive", title: PAYMENT_FAILED, description: message });
        return;
      }
      let placed = false;
      if (error instanceof ApiError) {
        for (const { field, message } of error.fieldErrors) {
          const input = SERVER_FIELDS[field];
          if (input) {
            setError(input, { type: "server", message }, { shouldFocus: !placed });
            placed = true;
          }
        }
      }
      // A card refused field by field (422) failed to pay; anything else (already paid, the
      // subscription changed, too many attempts) is the server's reason.
      const message = errorMessage(error, "The payment could not be made. Please try again.");
      if (!placed) setFailure({ message, declined: false });
      const refused = error instanceof ApiError && error.status === 422;
      toast({ variant: "destructive", title: refused ? PAYMENT_FAILED : "Error", description: message });
      return;
    }
    onPaid();
  });

  const pending = pay.isPending;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5" aria-label="Card payment">
      <div className="grid gap-2 rounded-lg border border-primary/30 bg-primary/5 p-4 text-sm" data-testid="test-provider-note">
        <p className="inline-flex items-center gap-2 font-medium text-primary-strong">
          <FlaskConicalIcon className="size-4 shrink-0" aria-hidden />
          Test payments: no real card is charged
        </p>
        <p className="text-muted-foreground">
          This server takes payments with Strikeline&apos;s built-in test provider, which accepts only these test cards, with any future
          expiry date and any 3- or 4-digit CVC:
        </p>
        <ul className="grid gap-1">
          {TEST_CARDS.map((card) => (
            <li key={card.number}>
              <span className="font-mono font-medium tabular whitespace-nowrap">{card.number}</span>{" "}
              <span className="text-muted-foreground">{card.result}</span>
            </li>
          ))}
        </ul>
      </div>

      <FormField id="card-number" label="Card number" error={errors.cardNumber?.message}>
        {(aria) => (
          <Input
            {...aria}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            maxLength={19}
            className="font-mono tabular"
            disabled={pending}
            {...register("cardNumber", { onChange: (e) => setValue("cardNumber", formatCardNumber(e.target.value)) })}
          />
        )}
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField id="card-expiry" label="Expiry (MM/YY)" error={errors.expiry?.message}>
          {(aria) => (
            <Input
              {...aria}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              maxLength={5}
              className="font-mono tabular"
              disabled={pending}
              {...register("expiry", { onChange: (e) => setValue("expiry", formatExpiry(e.target.value)) })}
            />
          )}
        </FormField>
        <FormField id="card-cvc" label="CVC" error={errors.cvc?.message}>
          {(aria) => (
            <Input
              {...aria}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              maxLength={4}
              className="font-mono tabular"
              disabled={pending}
              {...register("cvc", { onChange: (e) => setValue("cvc", digitsOf(e.target.value).slice(0, 4)) })}
            />
          )}
        </FormField>
      </div>

      {failure ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm"
          data-testid="payment-failure"
        >
          <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          {failure.declined ? (
            <p>
              <span className="font-medium text-destructive-strong">{PAYMENT_FAILED}:</span> {failure.message} Nothing was charged, and your
              plan has not changed. Check the details or try another card.
            </p>
          ) : (
            <p className="font-medium text-destructive-strong">{failure.message}</p>
          )}
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        <LockIcon aria-hidden />
        {pending ? "Processing..." : "Subscribe Now"}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        {amount} is charged now. The subscription renews automatically until you cancel it in Settings.
      </p>
    </form>
  );
}
