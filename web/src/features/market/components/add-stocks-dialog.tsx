import { AlertCircleIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { type Sector, SECTORS } from "@/lib/api/enums";
import type { BulkAddResult } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useBulkAddStocks } from "../api/bulk-add-stocks";
import { bulkAddSummary, collectEntries, EMPTY_ROW, type StockRow } from "../lib/bulk-entries";

const MAX_ROWS = 20;

function RowFields({
  row,
  index,
  onChange,
  onRemove,
}: {
  row: StockRow;
  index: number;
  onChange: (row: StockRow) => void;
  onRemove?: () => void;
}) {
  const id = useId();
  const n = index + 1;
  return (
    <fieldset className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 rounded-lg border p-3 sm:grid-cols-[7rem_minmax(0,1fr)_10rem_auto] sm:items-end sm:border-none sm:p-0">
      <legend className="sr-only">Stock {n}</legend>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-symbol`} className="text-xs text-muted-foreground">
          Symbol
        </Label>
        <Input
          id={`${id}-symbol`}
          value={row.symbol}
          onChange={(e) => onChange({ ...row, symbol: e.target.value.toUpperCase() })}
          placeholder="AAPL"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={10}
        />
      </div>
      <div className="col-start-1 grid gap-1.5 sm:col-start-auto">
        <Label htmlFor={`${id}-company`} className="text-xs text-muted-foreground">
          Company
        </Label>
        <Input
          id={`${id}-company`}
          value={row.companyName}
          onChange={(e) => onChange({ ...row, companyName: e.target.value })}
          placeholder="Apple Inc."
          autoComplete="off"
        />
      </div>
      <div className="col-start-1 grid gap-1.5 sm:col-start-auto">
        <Label htmlFor={`${id}-sector`} className="text-xs text-muted-foreground">
          Sector
        </Label>
        <NativeSelect id={`${id}-sector`} value={row.sector} onChange={(e) => onChange({ ...row, sector: e.target.value as Sector })}>
          {SECTORS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="col-start-2 row-start-1 self-end sm:col-start-auto sm:row-start-auto">
        {onRemove ? (
          <Button type="button" variant="ghost" size="icon" onClick={onRemove} aria-label={`Remove stock ${n}`}>
            <Trash2Icon aria-hidden />
          </Button>
        ) : (
          <span className="block size-9" />
        )}
      </div>
    </fieldset>
  );
}

/**
 * Adds symbols to the shared watchlist: rows of symbol, company and sector, and a bulk text
 * area ("SYMBOL, Company Name, Sector" per line). Entries the server refuses are listed
 * with its reason, and the dialog stays open so they can be corrected.
 */
export function AddStocksDialog() {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<StockRow[]>([EMPTY_ROW]);
  const [bulkText, setBulkText] = useState("");
  const [failures, setFailures] = useState<BulkAddResult[]>([]);
  const mutation = useBulkAddStocks();

  const reset = () => {
    setRows([EMPTY_ROW]);
    setBulkText("");
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      reset();
      setFailures([]);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const symbols = collectEntries(rows, bulkText);
    if (symbols.length === 0) {
      toast({ variant: "destructive", title: "No Stocks", description: "Please add at least one stock with a valid symbol" });
      return;
    }
    try {
      const answer = await mutation.mutateAsync({ symbols });
      const failed = answer.results.filter((r) => !r.ok);
      toast({ title: "Stocks Added", description: bulkAddSummary(answer.summary.successful, answer.summary.failed) });
      reset();
      setFailures(failed);
      if (failed.length === 0) setOpen(false);
    } catch {
      toast({ variant: "destructive", title: "Error", description: "Failed to add stocks to watchlist" });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <PlusIcon aria-hidden />
          Add Stocks
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add Stocks</DialogTitle>
          <DialogDescription>Add symbols to the watchlist that prices, signals and the market overview follow.</DialogDescription>
        </DialogHeader>
        {failures.length > 0 ? (
          <div
            role="alert"
            className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm"
            data-testid="bulk-add-failures"
          >
            <p className="inline-flex items-center gap-2 font-medium text-destructive-strong">
              <AlertCircleIcon className="size-4" aria-hidden />
              {failures.length === 1 ? "1 stock was not added" : `${failures.length} stocks were not added`}
            </p>
            <ul className="mt-2 grid gap-1">
              {failures.map((f, i) => (
                <li key={`${f.symbol}-${i}`}>
                  <span className="font-semibold">{f.symbol || "(blank)"}</span>: {f.reason ?? "Not added"}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
          <div className="grid gap-3">
            {rows.map((row, i) => (
              <RowFields
                key={i}
                row={row}
                index={i}
                onChange={(next) => setRows(rows.map((r, k) => (k === i ? next : r)))}
                onRemove={rows.length > 1 ? () => setRows(rows.filter((_, k) => k !== i)) : undefined}
              />
            ))}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="justify-self-start"
              onClick={() => setRows([...rows, EMPTY_ROW])}
              disabled={rows.length >= MAX_ROWS}
            >
              <PlusIcon aria-hidden />
              Add another
            </Button>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-bulk`}>Bulk add</Label>
            <Textarea
              id={`${id}-bulk`}
              value={bulkText}
              onChange={(e) => setBulkText(e.target.value)}
              placeholder={"AAPL, Apple Inc., Technology\nJPM, JPMorgan Chase & Co., Financial"}
              aria-describedby={`${id}-bulk-hint`}
              spellCheck={false}
              className="min-h-24 font-mono text-[0.8rem]"
            />
            <p id={`${id}-bulk-hint`} className="text-[0.8rem] text-muted-foreground">
              One stock per line: SYMBOL, Company Name, Sector. The name defaults to the symbol plus &quot;Company&quot;, the sector to
              Technology.
            </p>
          </div>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              {failures.length > 0 ? "Close" : "Cancel"}
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? "Adding..." : "Add Stocks"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
