import { ChevronDownIcon, PowerIcon, SendIcon, Trash2Icon, WalletIcon, WebhookIcon } from "lucide-react";
import { useId, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api/client";
import type { WebhookEndpoint } from "@/lib/api/models";
import { useTradingAccounts } from "@/lib/api/trading-accounts";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useDeleteWebhook } from "../api/delete-webhook";
import { useEnableWebhook } from "../api/enable-webhook";
import { useTestWebhook } from "../api/test-webhook";
import { deliveryOutcome, EVENT_TYPE_LABELS, endpointScope, endpointStatus, formatDay, type EndpointStatus } from "../lib/webhooks";
import { DeliveryLog } from "./delivery-log";

const STATUS_STYLES: Record<EndpointStatus["tone"], string> = {
  active: "bg-positive/10 text-positive-strong",
  failing: "bg-amber-500/15 text-amber-800 dark:text-amber-300",
  off: "bg-destructive/10 text-destructive-strong",
};

type Deleting = { endpoint: WebhookEndpoint; opener: HTMLElement };

function WebhookRow({
  endpoint,
  scope,
  onDelete,
}: {
  endpoint: WebhookEndpoint;
  /** The account whose closed positions it hears about, by name ("All accounts" unscoped); undefined: not shown. */
  scope: string | undefined;
  onDelete: (deleting: Deleting) => void;
}) {
  const id = useId();
  const [logOpen, setLogOpen] = useState(false);
  const test = useTestWebhook();
  const enable = useEnableWebhook();
  const status = endpointStatus(endpoint);
  const eventLabel = EVENT_TYPE_LABELS[endpoint.eventType] ?? endpoint.eventType;
  const urlId = `${id}-url`;
  const logId = `${id}-log`;

  const onTest = async () => {
    try {
      const delivery = await test.mutateAsync(endpoint.id);
      const outcome = deliveryOutcome(delivery);
      if (delivery.succeeded) toast({ title: "Test Delivered", description: `${outcome}.` });
      else
        toast({
          variant: "destructive",
          title: "Test Failed",
          description: delivery.error ? `${outcome}: ${delivery.error}` : `${outcome}.`,
        });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Test Not Sent",
        description: errorMessage(error, "Failed to send the test. Please try again."),
      });
    }
  };

  const onEnable = async () => {
    try {
      await enable.mutateAsync(endpoint.id);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Error",
        description: errorMessage(error, "Failed to switch the endpoint on. Please try again."),
      });
      return;
    }
    toast({ title: "Endpoint Switched On", description: `${eventLabel} events go to it again.` });
  };

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0" data-testid="webhook-row">
      <div className="grid min-w-0 gap-1.5">
        <p id={urlId} className="truncate font-mono text-sm font-medium" title={endpoint.url}>
          {endpoint.url}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{eventLabel}</Badge>
          <Badge className={cn("border-transparent", STATUS_STYLES[status.tone])} data-testid="webhook-status">
            {status.label}
          </Badge>
          {scope ? (
            <Badge
              variant="outline"
              className="max-w-full min-w-0"
              title={endpoint.accountId ? `Position closed events for ${scope} only` : "Position closed events for every account"}
              data-testid="webhook-account"
            >
              <WalletIcon aria-hidden />
              <span className="sr-only">Account: </span>
              <span className="truncate">{scope}</span>
            </Badge>
          ) : null}
          <span className="text-xs text-muted-foreground">Added {formatDay(endpoint.createdAt)}</span>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {endpoint.isActive ? (
          <Button variant="outline" size="sm" onClick={() => void onTest()} disabled={test.isPending} aria-describedby={urlId}>
            <SendIcon aria-hidden />
            {test.isPending ? "Sending..." : "Send test"}
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={() => void onEnable()} disabled={enable.isPending} aria-describedby={urlId}>
            <PowerIcon aria-hidden />
            {enable.isPending ? "Switching on..." : "Switch on"}
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setLogOpen((v) => !v)}
          aria-expanded={logOpen}
          aria-controls={logId}
          aria-describedby={urlId}
        >
          <ChevronDownIcon aria-hidden className={cn("transition-transform motion-reduce:transition-none", logOpen && "rotate-180")} />
          Delivery log
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={(event) => onDelete({ endpoint, opener: event.currentTarget })}
          aria-describedby={urlId}
          className="ml-auto text-muted-foreground hover:text-destructive-strong"
        >
          <Trash2Icon aria-hidden />
          <span className="sr-only sm:not-sr-only">Delete</span>
        </Button>
      </div>
      {logOpen ? <DeliveryLog endpointId={endpoint.id} id={logId} /> : null}
    </li>
  );
}

/**
 * Asks before deleting: deliveries stop and the log goes with the endpoint. Focus goes back
 * to the Delete button that opened it, or (once the row is gone) to `fallbackFocus`.
 */
function DeleteWebhookDialog({
  deleting,
  onOpenChange,
  fallbackFocus,
}: {
  deleting: Deleting | null;
  onOpenChange: (open: boolean) => void;
  fallbackFocus: () => void;
}) {
  const mutation = useDeleteWebhook();
  const endpoint = deleting?.endpoint ?? null;
  return (
    <ConfirmDeleteDialog
      open={endpoint !== null}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        if (deleting?.opener.isConnected) deleting.opener.focus();
        else fallbackFocus();
      }}
      title="Delete this endpoint?"
      descriptionClassName="break-all"
      description={
        endpoint
          ? `Strikeline stops sending ${EVENT_TYPE_LABELS[endpoint.eventType] ?? endpoint.eventType} events to ${endpoint.url}, and its delivery log is deleted. This cannot be undone.`
          : null
      }
      confirmLabel="Delete endpoint"
      pending={mutation.isPending}
      remove={() => (endpoint ? mutation.mutateAsync(endpoint.id) : Promise.resolve())}
      success={{ title: "Endpoint Deleted", description: "Strikeline no longer sends events to it." }}
      failure="Failed to delete the endpoint. Please try again."
    />
  );
}

/**
 * The user's endpoints: URL (truncated, whole in its title), event type, status (Active,
 * Failing since …, Switched off on …), the account it is narrowed to (see `endpointScope`) and
 * the day it was added; Send test (its outcome is
 * toasted), Switch on once switched off, the delivery log, and delete with confirmation.
 */
export function WebhookList({ endpoints, fallbackFocus }: { endpoints: WebhookEndpoint[]; fallbackFocus: () => void }) {
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const { data: accounts } = useTradingAccounts();
  if (endpoints.length === 0) {
    return (
      <EmptyState
        icon={WebhookIcon}
        title="No endpoints yet"
        description="Add an endpoint to have new signals, price alerts and closed signals or positions sent to your own service."
        className="py-10"
      />
    );
  }
  return (
    <>
      <ul className="divide-y" aria-label="Webhook endpoints">
        {endpoints.map((endpoint) => (
          <WebhookRow key={endpoint.id} endpoint={endpoint} scope={endpointScope(endpoint, accounts)} onDelete={setDeleting} />
        ))}
      </ul>
      <DeleteWebhookDialog
        deleting={deleting}
        fallbackFocus={fallbackFocus}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </>
  );
}
