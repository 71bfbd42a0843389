import { PlusIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { LockedFeature } from "@/components/locked-feature";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { PlanInfo, TradingAccounts } from "@/lib/api/models";
import { useDeleteTradingAccount, useTradingAccounts } from "../api/trading-accounts";
import { connectsBrokers } from "../lib/broker";
import { accountCount, premiumAccounts } from "../lib/trading-accounts";
import { type AccountAction, AccountList } from "./account-list";
import { AccountFormDialog } from "./account-form-dialog";
import { BrokerCheckDialog } from "./broker-check-dialog";
import { BrokerConnectDialog, BrokerDisconnectDialog } from "./broker-dialogs";

/** "You hold 2 of 10 accounts."; after a downgrade, "You hold 3 accounts; your plan holds 1." */
function holdingText({ accounts, maxAccounts }: TradingAccounts): string {
  const held = accounts.length;
  return held > maxAccounts
    ? `You hold ${accountCount(held)}; your plan holds ${maxAccounts}.`
    : `You hold ${held} of ${accountCount(maxAccounts)}.`;
}

/** A dialog the tab has open, and the control to give focus back to when it closes (none: the card). */
type Open = { kind: "new"; opener: HTMLElement | null } | AccountAction;

/**
 * Settings › Trading accounts: the user's accounts with "You hold N of M accounts", opening one
 * (or, on a plan that holds one, the way to Premium instead), editing, switching the automation,
 * switching to one and deleting one, and (Premium) connecting one to Alpaca, checking it against
 * Alpaca or disconnecting it.
 * The server decides every refusal; its reason is shown.
 * `plans` is the plan catalogue, for how many accounts Premium holds.
 */
export function TradingAccountsTab({ plans }: { plans?: readonly PlanInfo[] }) {
  const id = useId();
  const accounts = useTradingAccounts();
  const remove = useDeleteTradingAccount();
  const [open, setOpen] = useState<Open | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const list = accounts.data;
  const held = list?.accounts?.length ?? 0;
  const oneAccountPlan = list?.maxAccounts === 1;
  const full = list !== undefined && !oneAccountPlan && held >= list.maxAccounts;
  const premium = premiumAccounts(plans);
  const reasonId = `${id}-full`;

  const close = () => setOpen(null);
  /** Focus back on the control that opened the dialog, or the card once that control is gone. */
  const restoreFocus = (event: Event) => {
    event.preventDefault();
    const opener = open?.opener;
    if (opener?.isConnected) opener.focus();
    else cardRef.current?.focus();
  };
  const deleting = open?.kind === "delete" ? open.account : null;
  const connecting = open?.kind === "connect" ? open.account : null;
  const disconnecting = open?.kind === "disconnect" ? open.account : null;
  const checking = open?.kind === "check" ? open.account : null;
  const onDialogOpenChange = (next: boolean) => {
    if (!next) close();
  };

  return (
    <Card ref={cardRef} tabIndex={-1} role="region" aria-labelledby={`${id}-title`} className="outline-none">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b pb-4">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle id={`${id}-title`}>Trading accounts</CardTitle>
          <CardDescription>
            Each account has its own capital, preferences, automation, positions and history. The portfolio, the positions you add and your
            trading preferences are the current account&apos;s; switch accounts from the menu at the top of the page.
          </CardDescription>
          {list?.accounts ? (
            <p className="text-sm text-muted-foreground" data-testid="account-count">
              {holdingText(list)}
            </p>
          ) : null}
        </div>
        {list?.accounts && !oneAccountPlan ? (
          <Button
            onClick={(event) => setOpen({ kind: "new", opener: event.currentTarget })}
            disabled={full}
            aria-describedby={full ? reasonId : undefined}
          >
            <PlusIcon aria-hidden />
            Open an account
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        {list?.accounts && oneAccountPlan ? (
          <LockedFeature title="More trading accounts" plan="Premium" testId="trading-accounts-upgrade">
            Your plan holds one trading account. Premium holds {premium ? `up to ${premium}` : "several"}, such as a taxable account, an IRA
            and a paper account, each with its own capital, preferences and positions.
          </LockedFeature>
        ) : null}
        {full && list ? (
          <p id={reasonId} className="text-sm text-muted-foreground">
            You hold the most accounts your plan allows. Delete one to open another.
          </p>
        ) : null}
        <QueryState
          query={accounts}
          loadingLabel="Loading your trading accounts"
          skeleton={<SkeletonRows count={2} className="h-32 w-full" />}
          errorTitle="Failed to fetch your trading accounts"
          errorLayout="banner"
        >
          {(data) => (
            <AccountList
              accounts={data.accounts}
              maxAccounts={data.maxAccounts}
              connectsBrokers={connectsBrokers(data)}
              onAction={setOpen}
            />
          )}
        </QueryState>
      </CardContent>

      <AccountFormDialog
        open={open?.kind === "new" || open?.kind === "edit"}
        account={open?.kind === "edit" ? open.account : null}
        onOpenChange={(next) => {
          if (!next) close();
        }}
        onCloseAutoFocus={restoreFocus}
      />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(next) => {
          if (!next) close();
        }}
        onCloseAutoFocus={restoreFocus}
        title={deleting ? `Delete ${deleting.name}?` : "Delete this account?"}
        descriptionClassName="break-words"
        description="Its closed positions and its history are deleted with it. This cannot be undone."
        confirmLabel="Delete account"
        pending={remove.isPending}
        remove={() => (deleting ? remove.mutateAsync(deleting.id) : Promise.resolve())}
        success={{ title: "Account Deleted", description: deleting ? `${deleting.name} and its history are deleted.` : "It is deleted." }}
        failure="Failed to delete the account. Please try again."
      />
      <BrokerConnectDialog account={connecting} onOpenChange={onDialogOpenChange} onCloseAutoFocus={restoreFocus} />
      <BrokerCheckDialog account={checking} onOpenChange={onDialogOpenChange} onCloseAutoFocus={restoreFocus} />
      <BrokerDisconnectDialog account={disconnecting} onOpenChange={onDialogOpenChange} onCloseAutoFocus={restoreFocus} />
    </Card>
  );
}
