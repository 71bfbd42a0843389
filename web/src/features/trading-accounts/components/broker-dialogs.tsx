import { zodResolver } from "@hookform/resolvers/zod";
import { LockIcon, TriangleAlertIcon } from "lucide-react";
import { type ComponentProps, useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiError } from "@/lib/api/client";
import type { TradingAccount } from "@/lib/api/models";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useConnectBroker, useDisconnectBroker } from "../api/trading-accounts";
import {
  BROKER_FIELDS,
  type BrokerFormValues,
  brokerFormSchema,
  brokerFormValues,
  brokerRefusal,
  endpointLabel,
  isAlpaca,
  toBrokerConnection,
} from "../lib/broker";

type DialogFocusProps = { onCloseAutoFocus?: ComponentProps<typeof DialogContent>["onCloseAutoFocus"] };

/** A refusal no field of the form answers for (the plan, no credentials key, standing orders), shown above the buttons. */
type Refusal = { reason: string; plan: boolean };

/** The form itself, mounted afresh each time the dialog opens, so no key typed earlier is kept. */
function BrokerForm({ account, onDone }: { account: TradingAccount; onDone: () => void }) {
  const id = useId();
  const connect = useConnectBroker();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BrokerFormValues>({ resolver: zodResolver(brokerFormSchema), defaultValues: brokerFormValues(account) });
  const endpoint = useWatch({ control, name: "endpoint" });
  const connected = isAlpaca(account.broker);

  const onSubmit = handleSubmit(async (values) => {
    setRefusal(null);
    let saved: TradingAccount;
    try {
      saved = await connect.mutateAsync({ id: account.id, body: toBrokerConnection(values) });
    } catch (error) {
      const placed = applyServerFieldErrors(error, setError, BROKER_FIELDS);
      const reason = brokerRefusal(error, "Failed to connect Alpaca. Please try again.");
      if (!placed) setRefusal({ reason, plan: error instanceof ApiError && error.status === 403 });
      toast({ variant: "destructive", title: "Alpaca Not Connected", description: reason });
      return;
    }
    toast({
      title: "Alpaca Connected",
      description: `Orders for ${saved.name} go to Alpaca's ${saved.broker.endpoint === "live" ? "live" : "paper"} endpoint.`,
    });
    onDone();
  });

  const f = (name: string) => `${id}-${name}`;
  const live = endpoint === "live";

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
      <FormField
        id={f("endpoint")}
        label="Endpoint"
        error={errors.endpoint?.message}
        hint={
          <span className={cn("inline-flex items-start gap-1.5", live && "font-medium text-amber-800 dark:text-amber-300")}>
            {live ? <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden /> : null}
            Live sends real orders with real money.
          </span>
        }
        className="sm:max-w-[calc(50%-0.5rem)]"
      >
        {(aria) => (
          <NativeSelect {...aria} {...register("endpoint")}>
            <option value="paper">Paper (default)</option>
            <option value="live">Live</option>
          </NativeSelect>
        )}
      </FormField>

      <div className="grid gap-4 *:content-start sm:grid-cols-2">
        <FormField id={f("key-id")} label="Key ID" error={errors.keyId?.message} hint="8 to 64 letters and digits.">
          {(aria) => <Input autoComplete="off" autoCapitalize="off" spellCheck={false} {...aria} {...register("keyId")} />}
        </FormField>
        <FormField id={f("secret-key")} label="Secret key" error={errors.secretKey?.message} hint="16 to 128 characters.">
          {(aria) => (
            <Input type="password" autoComplete="off" autoCapitalize="off" spellCheck={false} {...aria} {...register("secretKey")} />
          )}
        </FormField>
      </div>

      <p className="flex gap-3 rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground">
        <LockIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          Your secret key is stored encrypted and never shown again. Orders for this account then go to Alpaca instead of the paper broker.
        </span>
      </p>

      {refusal ? (
        <div role="alert" className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          <p className="min-w-0 break-words">
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
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? (connected ? "Saving..." : "Connecting...") : connected ? "Save keys" : "Connect Alpaca"}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Connecting an account to Alpaca, or changing its keys (Premium): the endpoint (paper unless
 * chosen otherwise), the key id and the secret key. The rules are checked before sending; the
 * server's field errors (422) go under the field they name, any other refusal (the plan, no
 * credentials key on the server, standing orders) above the buttons, and every refusal is toasted.
 */
export function BrokerConnectDialog({
  account,
  onOpenChange,
  onCloseAutoFocus,
}: {
  /** The account to connect; null when the dialog is closed. */
  account: TradingAccount | null;
  onOpenChange: (open: boolean) => void;
} & DialogFocusProps) {
  const connected = account ? isAlpaca(account.broker) : false;
  return (
    <Dialog open={account !== null} onOpenChange={onOpenChange}>
      {account ? (
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto p-4 sm:p-6" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle className="break-words">
              {connected ? `Change the Alpaca keys of ${account.name}` : `Connect ${account.name} to Alpaca`}
            </DialogTitle>
            <DialogDescription className="break-words">
              {connected && account.broker.endpoint
                ? `It trades through Alpaca's ${endpointLabel(account.broker.endpoint).toLowerCase()} now. The new keys replace the old ones.`
                : "Trade this account through your Alpaca brokerage account, with an API key you create at Alpaca."}
            </DialogDescription>
          </DialogHeader>
          <BrokerForm account={account} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/**
 * Asks before disconnecting an account from Alpaca: Cancel, or "Disconnect", which sends the
 * disconnect, toasts "Broker Disconnected" and closes, or toasts the server's reason (standing
 * orders at Alpaca, 409) and stays open.
 */
export function BrokerDisconnectDialog({
  account,
  onOpenChange,
  onCloseAutoFocus,
}: {
  /** The account to disconnect; null when the dialog is closed. */
  account: TradingAccount | null;
  onOpenChange: (open: boolean) => void;
} & DialogFocusProps) {
  const disconnect = useDisconnectBroker();
  const confirm = async (target: TradingAccount) => {
    try {
      await disconnect.mutateAsync(target.id);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Broker Not Disconnected",
        description: brokerRefusal(error, "Failed to disconnect the broker. Please try again."),
      });
      return;
    }
    toast({ title: "Broker Disconnected", description: `Orders for ${target.name} go to the paper broker again.` });
    onOpenChange(false);
  };
  return (
    <Dialog open={account !== null} onOpenChange={onOpenChange}>
      {account ? (
        <DialogContent className="max-w-md" role="alertdialog" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle className="break-words">Disconnect {account.name} from Alpaca?</DialogTitle>
            <DialogDescription className="break-words">Orders for {account.name} go to the paper broker again.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void confirm(account)} disabled={disconnect.isPending}>
              {disconnect.isPending ? "Disconnecting..." : "Disconnect"}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
