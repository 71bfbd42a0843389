import { BellPlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import type { StockPrice } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { PriceAlertForm } from "./price-alert-form";

/** A stock row's "Set price alert" shortcut: the alert form in a dialog, on that symbol. */
export function SetPriceAlertButton({ stock, className }: { stock: StockPrice; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className={cn("size-8 text-muted-foreground hover:text-foreground", className)}>
          <BellPlusIcon aria-hidden />
          <span className="sr-only">Set price alert for {stock.symbol}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Set price alert</DialogTitle>
          <DialogDescription>
            Get a notification when {stock.symbol} ({stock.companyName}) reaches your price.
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <PriceAlertForm
            symbol={stock.symbol}
            layout="stacked"
            onCreated={() => setOpen(false)}
            actions={
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                Cancel
              </Button>
            }
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
