import { Loader2Icon, SendIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { Optimisation, ProposedPosition, SentOrders } from "@/lib/api/models";
import { currentAccountOf, useTradingAccounts } from "@/lib/api/trading-accounts";
import { formatMoney } from "@/lib/format";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { proposalOrders, useSendProposal } from "../api/send-proposal";

/** What sending does, said in the confirmation (docs/execution.md). */
export const SEND_NOTE =
  "Each position becomes a market order in this account, filled by the paper broker at the signal's premium plus 1% slippage and $0.65 a contract.";

/** The failure toast's fallback when the server gives no reason. */
export const SEND_FAILED = "Failed to send the orders. Please try again.";

const orders = (n: number) => `${n} ${n === 1 ? "order" : "orders"}`;
const positionsText = (n: number) => `${n} ${n === 1 ? "position" : "positions"}`;
const contractsText = (n: number) => `${n} ${n === 1 ? "contract" : "contracts"}`;

/**
 * The success toast's sentence for `sent` positions: "3 orders placed and filled.", or, when
 * some signals were ordered already (not ordered again, not counted in `placed`), "2 orders
 * placed; 1 was already ordered.". "and filled" only when every order listed is filled.
 */
export function sentDescription({ orders: list, placed }: SentOrders, sent: number): string {
  const already = Math.max(0, sent - placed);
  if (placed === 0) {
    return already === 1 ? "Nothing placed: this position was already ordered." : `Nothing placed: all ${already} were already ordered.`;
  }
  if (already > 0) return `${orders(placed)} placed; ${already} ${already === 1 ? "was" : "were"} already ordered.`;
  const filled = list.length > 0 && list.every((o) => o.status === "filled");
  return filled ? `${orders(placed)} placed and filled.` : `${orders(placed)} placed. See Orders for how each filled.`;
}

/**
 * The failure toast's sentence: for a 422, the first field error's message, after the symbol of
 * the position it names (`positions[1].contracts` → "NVDA: …"); otherwise the server's detail.
 */
export function sendFailure(error: unknown, positions: readonly Pick<ProposedPosition, "symbol">[]): string {
  if (error instanceof ApiError && error.status === 422) {
    const [first] = error.fieldErrors;
    if (first) {
      const index = /^positions\[(\d+)\]/.exec(first.field)?.[1];
      const symbol = index === undefined ? undefined : positions[Number(index)]?.symbol;
      return symbol ? `${symbol}: ${first.message}` : first.message;
    }
  }
  return errorMessage(error, SEND_FAILED);
}

function Fact({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-semibold break-words tabular">{children}</dd>
    </div>
  );
}

/**
 * "Send as orders" (Premium; docs/execution.md): asks first, summing up what goes (the
 * positions, their cost, the current account), then sends each position as one market order
 * (POST /api/orders/proposal). Toasts how many were placed, or the server's reason.
 * `disabled` while the proposal is being replaced; `onSent` after a send went through.
 */
export function SendProposal({ result, disabled, onSent }: { result: Optimisation; disabled?: boolean; onSent?: () => void }) {
  const [open, setOpen] = useState(false);
  const send = useSendProposal();
  const pending = send.isPending;
  const { data: accounts } = useTradingAccounts();
  const account = currentAccountOf(accounts);
  const count = result.positions.length;
  const contracts = result.positions.reduce((sum, p) => sum + p.contracts, 0);

  const confirm = async () => {
    try {
      const sent = await send.mutateAsync(proposalOrders(result.positions));
      toast({ title: "Orders Sent", description: sentDescription(sent, count) });
      onSent?.();
    } catch (error) {
      toast({ variant: "destructive", title: "Orders Not Sent", description: sendFailure(error, result.positions) });
    }
    setOpen(false);
  };

  return (
    // Not closed while the send runs: the answer closes it.
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : setOpen(next))}>
      <DialogTrigger asChild>
        <Button type="button" disabled={disabled} className="w-full sm:w-auto" data-testid="send-proposal">
          <SendIcon aria-hidden />
          Send as orders
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md" role="alertdialog" aria-busy={pending}>
        <DialogHeader>
          <DialogTitle>Send the proposal as orders?</DialogTitle>
          <DialogDescription>{SEND_NOTE}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm" data-testid="send-summary">
          <Fact label="Positions">
            {positionsText(count)}
            <span className="block text-xs font-normal text-muted-foreground">{contractsText(contracts)}</span>
          </Fact>
          <Fact label="Total cost">{formatMoney(result.cost)}</Fact>
          {account ? (
            <Fact label="Account" className="col-span-2">
              {account.name}
            </Fact>
          ) : null}
        </dl>
        <span role="status" className="sr-only">
          {pending ? `Sending ${orders(count)}…` : ""}
        </span>
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={() => setOpen(false)} disabled={pending}>
            Keep proposal
          </Button>
          <Button type="button" onClick={() => void confirm()} disabled={pending} aria-busy={pending}>
            {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SendIcon aria-hidden />}
            {pending ? "Sending…" : "Send orders"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
