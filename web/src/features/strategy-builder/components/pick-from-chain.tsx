import { TableIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { type ChainPick, type ChainPickerProps, describePick } from "@/lib/options";
import { MAX_LEGS } from "../lib/builder";

/** Renders a chain whose quotes can be picked; the app gives the market's (features do not import each other). */
export type ChainPickerSlot = (props: ChainPickerProps) => ReactNode;

/**
 * "Pick from chain": the builder's symbol's option chain in a dialog. Each ask bought or bid
 * sold adds a leg (`onPick`); the dialog stays open for the next leg, and says what was added.
 */
export function PickFromChain({
  symbol,
  legCount,
  onPick,
  chainPicker,
}: {
  symbol: string;
  legCount: number;
  onPick: (pick: ChainPick) => void;
  chainPicker: ChainPickerSlot;
}) {
  const [open, setOpen] = useState(false);
  const [last, setLast] = useState<string | null>(null);
  const full = legCount >= MAX_LEGS;
  const pick = (chosen: ChainPick) => {
    onPick(chosen);
    setLast(describePick(chosen));
  };
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setLast(null);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" disabled={!symbol || full}>
          <TableIcon aria-hidden />
          Pick from chain
        </Button>
      </DialogTrigger>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] w-[calc(100%-1rem)] max-w-5xl gap-4 overflow-y-auto p-3 sm:w-[calc(100%-2rem)] sm:p-6"
        data-testid="pick-from-chain"
      >
        <DialogHeader>
          <DialogTitle>Pick from the {symbol} chain</DialogTitle>
          <DialogDescription>
            Buy at the ask or sell at the bid: each pick adds a leg with the contract&apos;s strike, expiration, price and implied
            volatility.
          </DialogDescription>
        </DialogHeader>
        <p role="status" aria-live="polite" className="min-h-5 text-sm" data-testid="pick-status">
          {last ? (
            <>
              <span className="font-medium">
                Leg {legCount} of {MAX_LEGS} added:
              </span>{" "}
              {last}.
            </>
          ) : (
            <span className="text-muted-foreground">
              {legCount} of {MAX_LEGS} legs.
            </span>
          )}
          {full ? <span className="font-medium"> The position has the most legs it may have.</span> : null}
        </p>
        {open ? chainPicker({ symbol, onPick: pick, disabled: full }) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button">Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
