import {
  ArrowRightLeftIcon,
  KeyRoundIcon,
  OctagonXIcon,
  PencilIcon,
  PlugIcon,
  ScaleIcon,
  Trash2Icon,
  TriangleAlertIcon,
  UnplugIcon,
} from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/lib/api/client";
import type { TradingAccount } from "@/lib/api/models";
import { formatCurrency, riskToleranceLabel } from "@/lib/format";
import { toast } from "@/lib/toast";
import { useUpdateTradingAccount } from "../api/trading-accounts";
import { useSwitchAccount } from "../hooks/use-switch-account";
import { brokerLabel, isAlpaca, tradesLive } from "../lib/broker";
import { accountCount, orderStrategies } from "../lib/trading-accounts";

/**
 * What a row's buttons ask of the list: edit or delete `account`, connect it to Alpaca (or change
 * its keys), check it against Alpaca or disconnect it, `opener` getting focus back after.
 */
export type AccountAction = { kind: "edit" | "delete" | "connect" | "check" | "disconnect"; account: TradingAccount; opener: HTMLElement };

type AccountRowProps = {
  account: TradingAccount;
  maxAccounts: number;
  /** Whether the plan trades through Alpaca (Premium): the row offers to connect it. */
  connectsBrokers: boolean;
  onAction: (action: AccountAction) => void;
};

/** The automation switch of one account, saved as it changes. */
function AutomationSwitch({ account, nameId }: { account: TradingAccount; nameId: string }) {
  const id = useId();
  const update = useUpdateTradingAccount();
  const onChange = async (automate: boolean) => {
    try {
      await update.mutateAsync({ id: account.id, body: { automate } });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Automation Not Changed",
        description: errorMessage(error, "Failed to change the automation. Please try again."),
      });
      return;
    }
    toast(
      automate
        ? {
            title: "Automation On",
            description: account.withinPlan
              ? `The automation opens paper positions in ${account.name}.`
              : `The automation opens positions in ${account.name} once your plan holds it.`,
          }
        : { title: "Automation Off", description: `The automation opens no new positions in ${account.name}.` },
    );
  };
  return (
    <div className="flex items-center gap-2.5">
      <Switch
        id={id}
        checked={account.automate}
        onCheckedChange={(checked) => void onChange(checked)}
        disabled={update.isPending}
        aria-labelledby={`${id}-label ${nameId}`}
      />
      <Label id={`${id}-label`} htmlFor={id} className="cursor-pointer">
        Automation
      </Label>
    </div>
  );
}

/**
 * The account's kill switch, saved as it changes: while on, the automation sends the account no
 * new orders, and turning it on cancels its standing orders (PATCH `ordersHalted`).
 */
function KillSwitch({ account, nameId }: { account: TradingAccount; nameId: string }) {
  const id = useId();
  const update = useUpdateTradingAccount();
  const onChange = async (ordersHalted: boolean) => {
    try {
      await update.mutateAsync({ id: account.id, body: { ordersHalted } });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Kill Switch Not Changed",
        description: errorMessage(error, "Failed to change the kill switch. Please try again."),
      });
      return;
    }
    toast(
      ordersHalted
        ? { title: "Orders Stopped", description: `The automation sends ${account.name} no new orders; its standing orders are cancelled.` }
        : { title: "Orders Resumed", description: `The automation sends orders for ${account.name} again.` },
    );
  };
  return (
    <div className="flex items-start justify-between gap-4 rounded-md border px-3 py-3">
      <div className="grid min-w-0 gap-1">
        <Label id={`${id}-label`} htmlFor={id} className="cursor-pointer">
          Kill switch: stop new orders
        </Label>
        <p id={`${id}-help`} className="text-[0.8rem] text-muted-foreground">
          While on, the automation sends this account no new orders and its standing orders are cancelled.
        </p>
      </div>
      <Switch
        id={id}
        checked={account.ordersHalted}
        onCheckedChange={(checked) => void onChange(checked)}
        disabled={update.isPending}
        aria-labelledby={`${id}-label ${nameId}`}
        aria-describedby={`${id}-help`}
        className="mt-0.5"
      />
    </div>
  );
}

/**
 * Who fills the account's orders: "Paper broker (built in)", or Alpaca with its endpoint and the
 * key id's last four characters ("Live money" on the live endpoint). On Premium, "Connect
 * Alpaca" or "Change keys"; when connected, "Check against Alpaca" (the server decides whether
 * the plan allows it, and says so) and "Disconnect" (on any plan: after a downgrade the
 * automation sends the account nothing, and going back to the paper broker stays the user's).
 */
function BrokerLine({
  account,
  nameId,
  connectsBrokers,
  onAction,
}: {
  account: TradingAccount;
  nameId: string;
  connectsBrokers: boolean;
  onAction: (action: AccountAction) => void;
}) {
  const alpaca = isAlpaca(account.broker);
  const live = tradesLive(account.broker);
  return (
    <div className="grid gap-3 rounded-md border px-3 py-3" data-testid="account-broker">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <dl className="min-w-0 text-sm">
          <dt className="text-xs text-muted-foreground">Broker</dt>
          <dd className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 font-medium break-words">
            <span className="min-w-0 break-words">{brokerLabel(account.broker)}</span>
            {live ? (
              <Badge variant="outline" className="border-destructive/40 bg-destructive/10 text-destructive-strong">
                <TriangleAlertIcon aria-hidden />
                Live money
              </Badge>
            ) : null}
          </dd>
        </dl>
        {connectsBrokers || alpaca ? (
          <div className="flex flex-wrap items-center gap-2">
            {alpaca ? (
              <Button
                variant="outline"
                size="sm"
                onClick={(event) => onAction({ kind: "check", account, opener: event.currentTarget })}
                aria-describedby={nameId}
              >
                <ScaleIcon aria-hidden />
                Check against Alpaca
              </Button>
            ) : null}
            {connectsBrokers ? (
              <Button
                variant="outline"
                size="sm"
                onClick={(event) => onAction({ kind: "connect", account, opener: event.currentTarget })}
                aria-describedby={nameId}
              >
                {alpaca ? <KeyRoundIcon aria-hidden /> : <PlugIcon aria-hidden />}
                {alpaca ? "Change keys" : "Connect Alpaca"}
              </Button>
            ) : null}
            {alpaca ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={(event) => onAction({ kind: "disconnect", account, opener: event.currentTarget })}
                aria-describedby={nameId}
                className="text-muted-foreground hover:text-destructive-strong"
              >
                <UnplugIcon aria-hidden />
                Disconnect
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {alpaca && !connectsBrokers ? (
        <p className="text-[0.8rem] text-muted-foreground">
          Your plan does not trade through Alpaca: the automation sends this account no orders. Its standing orders and open positions still
          settle at Alpaca.{" "}
          <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            See plans
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function AccountRow({ account, maxAccounts, connectsBrokers, onAction }: AccountRowProps) {
  const nameId = useId();
  const { switchTo, switchingTo } = useSwitchAccount();
  const strategies = orderStrategies(account.preferredStrategies);
  const figures = [
    { label: "Capital", value: formatCurrency(account.investmentCapital) },
    // The capital less what the account's fills paid, plus what they brought in.
    { label: "Cash", value: formatCurrency(account.cash) },
    { label: "Max position size", value: formatCurrency(account.maxPositionSize) },
    { label: "Risk tolerance", value: riskToleranceLabel(account.riskTolerance) },
    { label: "Preferred strategies", value: strategies.length > 0 ? strategies.join(", ") : "None" },
  ];
  const switching = switchingTo === account.id;

  return (
    <li className="grid gap-4 py-5 first:pt-0 last:pb-0" aria-labelledby={nameId} data-testid="trading-account">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h3 id={nameId} className="min-w-0 truncate text-base font-semibold" title={account.name}>
          {account.name}
        </h3>
        {account.current ? <Badge variant="soft">Current</Badge> : null}
        {account.ordersHalted ? (
          <Badge variant="outline" className="border-destructive/40 bg-destructive/10 text-destructive-strong">
            <OctagonXIcon aria-hidden />
            Orders stopped
          </Badge>
        ) : null}
        {account.withinPlan ? null : (
          <Badge
            variant="outline"
            className="border-amber-600/40 bg-amber-500/10 text-amber-800 dark:border-amber-400/40 dark:text-amber-300"
          >
            Beyond your plan
          </Badge>
        )}
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm lg:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="min-w-0">
            <dt className="text-xs text-muted-foreground">{figure.label}</dt>
            <dd className="mt-0.5 font-medium break-words tabular">{figure.value}</dd>
          </div>
        ))}
      </dl>

      {account.withinPlan ? null : (
        <p className="rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground">
          Your plan holds {accountCount(maxAccounts)}, the oldest first. The automation does not open positions in this one; its positions
          and history stay yours to see and manage.{" "}
          <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            See plans
          </Link>
        </p>
      )}

      <BrokerLine account={account} nameId={nameId} connectsBrokers={connectsBrokers} onAction={onAction} />

      <KillSwitch account={account} nameId={nameId} />

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <AutomationSwitch account={account} nameId={nameId} />
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {account.current ? null : (
            <Button variant="outline" size="sm" onClick={() => void switchTo(account)} disabled={switching} aria-describedby={nameId}>
              <ArrowRightLeftIcon aria-hidden />
              {switching ? "Switching..." : "Switch to this account"}
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            onClick={(event) => onAction({ kind: "edit", account, opener: event.currentTarget })}
            aria-describedby={nameId}
          >
            <PencilIcon aria-hidden />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={(event) => onAction({ kind: "delete", account, opener: event.currentTarget })}
            aria-describedby={nameId}
            className="text-muted-foreground hover:text-destructive-strong"
          >
            <Trash2Icon aria-hidden />
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}

/**
 * The user's accounts, oldest first: each with its name, a "Current" badge, "Orders stopped"
 * while its kill switch is on, its capital, max position size, risk tolerance and preferred
 * strategies, and "Beyond your plan" with what that means when the plan no longer holds it; its
 * broker (with, on Premium, the way to connect Alpaca), its kill switch and automation switch
 * (each saved as it changes), "Switch to this account", Edit and Delete.
 */
export function AccountList({
  accounts,
  maxAccounts,
  connectsBrokers,
  onAction,
}: {
  accounts: TradingAccount[];
  maxAccounts: number;
  connectsBrokers: boolean;
  onAction: (action: AccountAction) => void;
}) {
  return (
    <ul className="divide-y" aria-label="Trading accounts">
      {accounts.map((account) => (
        <AccountRow key={account.id} account={account} maxAccounts={maxAccounts} connectsBrokers={connectsBrokers} onAction={onAction} />
      ))}
    </ul>
  );
}
