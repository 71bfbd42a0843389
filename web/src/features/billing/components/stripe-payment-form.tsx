import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { AlertCircleIcon, Loader2Icon, LockIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/lib/toast";
import { useTheme } from "@/lib/theme";
import { PAYMENT_FAILED } from "./test-card-form";

/** Stripe.js, loaded once per publishable key, only when Stripe takes the payment (the `pure` entry loads nothing on import). */
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey).catch(() => null);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

function Unavailable({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
      <p>{children}</p>
    </div>
  );
}

function CheckoutForm({ amount, returnUrl }: { amount: string; returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPending(true);
    setFailure(null);
    // On success Stripe sends the browser to `returnUrl`; only a failure comes back here.
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
    setPending(false);
    const message = error?.message ?? "The payment could not be made. Please try again.";
    setFailure(message);
    toast({ variant: "destructive", title: PAYMENT_FAILED, description: message });
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5" aria-label="Card payment">
      <PaymentElement onReady={() => setReady(true)} />
      {!ready ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading the payment form...
        </p>
      ) : null}
      {failure ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm"
          data-testid="payment-failure"
        >
          <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          <p>
            <span className="font-medium text-destructive-strong">{PAYMENT_FAILED}:</span> {failure}
          </p>
        </div>
      ) : null}
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || !elements || !ready || pending}>
        <LockIcon aria-hidden />
        {pending ? "Processing..." : "Subscribe Now"}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        {amount} is charged now by Stripe. Card details go to Stripe directly and never reach Strikeline&apos;s servers. The subscription
        renews automatically until you cancel it in Settings.
      </p>
    </form>
  );
}

/**
 * Stripe's Payment Element for the checkout's client secret, with the server's publishable key
 * (none is built into the app). On success Stripe returns the browser to `returnUrl`
 * (/settings?tab=subscription&success=true); a decline toasts 'Payment Failed' with Stripe's message.
 * Loaded lazily: only a Stripe checkout fetches this chunk and Stripe.js.
 */
export default function StripePaymentForm({
  clientSecret,
  publishableKey,
  amount,
  returnUrl,
}: {
  clientSecret: string;
  publishableKey: string | null | undefined;
  amount: string;
  returnUrl: string;
}) {
  const { resolvedTheme } = useTheme();
  const promise = useMemo(() => (publishableKey ? stripeFor(publishableKey) : null), [publishableKey]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void promise?.then((stripe) => {
      if (live && !stripe) setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [promise]);

  if (!publishableKey || !promise) {
    return (
      <Unavailable>
        Card payment is not available: the server has no Stripe publishable key configured. Nothing has been charged.
      </Unavailable>
    );
  }
  if (failed) {
    return <Unavailable>Stripe could not be loaded. Check your connection and reload the page. Nothing has been charged.</Unavailable>;
  }
  return (
    <Elements stripe={promise} options={{ clientSecret, appearance: { theme: resolvedTheme === "dark" ? "night" : "stripe" } }}>
      <CheckoutForm amount={amount} returnUrl={returnUrl} />
    </Elements>
  );
}
