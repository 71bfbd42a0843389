import { useId, useRef, useState } from "react";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { CreatedWebhook, Plan } from "@/lib/api/models";
import { useWebhooks } from "../api/get-webhooks";
import { MAX_WEBHOOKS } from "../lib/webhooks";
import { AddWebhookDialog } from "./add-webhook-dialog";
import { CreatedWebhookDialog } from "./created-webhook-dialog";
import { WebhookList } from "./webhook-list";

const code = "font-mono text-xs text-foreground";

/**
 * Webhooks (Settings › API Keys): the user's endpoints with their status and delivery logs,
 * adding one (its signing secret shown once), testing, switching back on and deleting.
 * `plan` is the plan in force: on Free, adding is disabled and says why. An unconfirmed address
 * (`addressConfirmed` false) disables adding too, with a way to send a new confirmation link.
 */
export function WebhooksCard({ plan, addressConfirmed = true, email }: { plan: Plan; addressConfirmed?: boolean; email?: string }) {
  const id = useId();
  const webhooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const count = webhooks.data?.length ?? 0;
  const free = plan === "free";
  const unconfirmed = !addressConfirmed;
  const full = count >= MAX_WEBHOOKS;
  const reasonId = `${id}-disabled-reason`;
  const cardRef = useRef<HTMLDivElement>(null);
  /** Focus for when the control that opened a dialog is gone: the new endpoint's Send test, else the card. */
  const focusInCard = (selector?: string) => {
    const target = selector ? cardRef.current?.querySelector<HTMLElement>(selector) : null;
    (target ?? cardRef.current)?.focus();
  };

  return (
    <Card ref={cardRef} tabIndex={-1} aria-labelledby={`${id}-title`} role="region" className="outline-none">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b pb-4">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle id={`${id}-title`}>Webhooks</CardTitle>
          <CardDescription>
            Strikeline POSTs signed JSON to your URL when events happen (Standard Webhooks: <code className={code}>webhook-id</code>,{" "}
            <code className={code}>webhook-timestamp</code>, <code className={code}>webhook-signature</code>). Payloads are in the{" "}
            <Link to="/api" className="font-medium text-primary-strong underline-offset-4 hover:underline">
              API reference
            </Link>
            .
          </CardDescription>
          {webhooks.data ? (
            <p className="text-sm text-muted-foreground" data-testid="webhook-count">
              {count} of {MAX_WEBHOOKS} endpoints
            </p>
          ) : null}
        </div>
        <AddWebhookDialog
          onCreated={setCreated}
          disabled={unconfirmed || free || full || !webhooks.data}
          describedBy={unconfirmed || free || full ? reasonId : undefined}
        />
      </CardHeader>
      <CardContent className="grid gap-4 pt-5">
        {unconfirmed ? (
          <div className="flex flex-wrap items-center gap-3 rounded-lg bg-muted/60 px-3 py-2.5 text-sm">
            <p id={reasonId} className="min-w-0 flex-1 basis-60 text-muted-foreground">
              Webhooks need a confirmed email address: open the link we sent{email ? ` to ${email}` : " you"} to start your 14-day Pro
              trial.
            </p>
            <ResendLinkButton email={email} />
          </div>
        ) : free ? (
          <p id={reasonId} className="rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground">
            Webhooks are part of the Pro and Premium plans.{" "}
            <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
              Upgrade
            </Link>{" "}
            to add an endpoint.
          </p>
        ) : full ? (
          <p id={reasonId} className="text-sm text-muted-foreground">
            You have {MAX_WEBHOOKS} endpoints, the most allowed. Delete one to add another.
          </p>
        ) : null}
        <QueryState
          query={webhooks}
          loadingLabel="Loading your webhook endpoints"
          skeleton={<SkeletonRows count={2} className="h-16 w-full" />}
          errorTitle="Failed to fetch your webhook endpoints"
        >
          {(endpoints) => <WebhookList endpoints={endpoints} fallbackFocus={() => focusInCard()} />}
        </QueryState>
      </CardContent>
      <CreatedWebhookDialog
        created={created}
        onDone={() => setCreated(null)}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusInCard('[data-testid="webhook-row"] button');
        }}
      />
    </Card>
  );
}
