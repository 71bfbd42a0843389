import { zodResolver } from "@hookform/resolvers/zod";
import { PlusIcon, TriangleAlertIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { FormField } from "@/components/form-field";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiError, errorMessage } from "@/lib/api/client";
import { isUnconfirmedAddressRefusal } from "@/lib/api/email-confirmation";
import { WEBHOOK_EVENT_TYPES } from "@/lib/api/enums";
import type { CreatedWebhook } from "@/lib/api/models";
import { useTradingAccounts } from "@/lib/api/trading-accounts";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useCreateWebhook } from "../api/create-webhook";
import {
  ALL_ACCOUNTS,
  EMPTY_WEBHOOK_FORM,
  EVENT_TYPE_LABELS,
  offersAccountChoice,
  WEBHOOK_FIELDS,
  type WebhookFormValues,
  webhookFormSchema,
  webhookRequest,
} from "../lib/webhooks";

type AddWebhookDialogProps = {
  onCreated: (created: CreatedWebhook) => void;
  disabled?: boolean;
  /** The id of the text that says why the button is disabled. */
  describedBy?: string;
};

/**
 * Add endpoint: a URL, the event type it receives and, for a user who holds more than one
 * trading account, the account whose closed positions it hears about (default all accounts:
 * no `accountId` is sent; other events are not narrowed). The server's refusals go under the
 * field they name (422); a plan without webhooks (403) is shown in the dialog with a link to
 * the plans, an unconfirmed address (403) with "Send a new link"; every refusal also toasts
 * the server's reason. On success the dialog closes and
 * `onCreated` receives the signing secret, to be shown once.
 */
export function AddWebhookDialog({ onCreated, disabled, describedBy }: AddWebhookDialogProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<{ reason: string; unconfirmed: boolean } | null>(null);
  const mutation = useCreateWebhook();
  const { data: accounts } = useTradingAccounts();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<WebhookFormValues>({ resolver: zodResolver(webhookFormSchema), defaultValues: EMPTY_WEBHOOK_FORM });

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      reset(EMPTY_WEBHOOK_FORM);
      setRefusal(null);
      mutation.reset();
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    setRefusal(null);
    let created: CreatedWebhook;
    try {
      created = await mutation.mutateAsync(webhookRequest(values, accounts));
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 422) applyServerFieldErrors(error, setError, WEBHOOK_FIELDS);
      const reason = errorMessage(error, "Failed to add the endpoint. Please try again.");
      const unconfirmed = isUnconfirmedAddressRefusal(error);
      if (status === 403) setRefusal({ reason, unconfirmed });
      toast({ variant: "destructive", title: unconfirmed ? "Email Not Confirmed" : "Endpoint Not Added", description: reason });
      return;
    }
    onOpenChange(false);
    onCreated(created);
  });

  const f = (name: string) => `${id}-${name}`;
  const pending = mutation.isPending;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button disabled={disabled} aria-describedby={describedBy}>
          <PlusIcon aria-hidden />
          Add endpoint
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Add endpoint</DialogTitle>
          <DialogDescription>Strikeline sends each event of the chosen type to this URL as a signed POST.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
          <FormField id={f("url")} label="Endpoint URL" error={errors.url?.message} hint="An https address on the public internet.">
            {(aria) => (
              <Input
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://example.com/strikeline"
                {...aria}
                {...register("url")}
              />
            )}
          </FormField>
          <FormField id={f("event")} label="Event type" error={errors.eventType?.message}>
            {(aria) => (
              <NativeSelect {...aria} {...register("eventType")}>
                {WEBHOOK_EVENT_TYPES.map((value) => (
                  <option key={value} value={value}>
                    {EVENT_TYPE_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          {offersAccountChoice(accounts) ? (
            <FormField
              id={f("account")}
              label="Account"
              error={errors.accountId?.message}
              hint="Only narrows Position closed events: other events are sent whatever the account."
            >
              {(aria) => (
                <NativeSelect {...aria} {...register("accountId")}>
                  <option value={ALL_ACCOUNTS}>All accounts</option>
                  {accounts?.accounts?.map((account) => (
                    <option key={account.id} value={account.id}>
                      {account.name}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          ) : null}
          {refusal && !refusal.unconfirmed ? (
            <div
              role="alert"
              data-testid="webhook-plan-refusal"
              className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
            >
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
              <p>
                {refusal.reason}{" "}
                <Link to="/pricing" className="font-medium text-primary-strong underline underline-offset-4">
                  Upgrade
                </Link>
              </p>
            </div>
          ) : null}
          {refusal?.unconfirmed ? (
            <div
              role="alert"
              data-testid="webhook-address-refusal"
              className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
            >
              <p className="flex gap-3">
                <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
                {refusal.reason}
              </p>
              <ResendLinkButton className="w-fit" />
            </div>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Adding..." : "Add endpoint"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
