import { SparklesIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ApiError } from "@/lib/api/client";
import { toast } from "@/lib/toast";
import { useGenerateSignal } from "../api/generate-signal";

/** Why generation failed, from the server, to show in the dialog; null when the toast says it all. */
function failureNote(error: unknown): { field: string | null; note: string | null; upgrade: boolean } {
  if (!(error instanceof ApiError)) return { field: null, note: null, upgrade: false };
  const field = error.fieldErrors.find((e) => e.field === "symbol")?.message ?? null;
  const detail = error.problem?.detail ?? error.problem?.title ?? null;
  if (error.status === 403 || error.status === 429) return { field: null, note: detail, upgrade: true };
  return { field: field ?? (error.status === 422 ? detail : null), note: null, upgrade: false };
}

/**
 * The Generate Signal flow: a stock symbol (required, upper-cased) posted to
 * /api/signals/generate-for-symbol, with the toasts "Symbol Required", "Signal Generated" and
 * "Generation Failed". The server's reason for a
 * refusal (unknown symbol, plan, daily quota) is shown in the dialog.
 */
export function GenerateSignalDialog({ triggerLabel = "Generate Signal" }: { triggerLabel?: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [symbol, setSymbol] = useState("");
  const mutation = useGenerateSignal();
  const failure = mutation.isError ? failureNote(mutation.error) : null;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSymbol("");
      mutation.reset();
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = symbol.trim();
    if (!trimmed) {
      toast({ variant: "destructive", title: "Symbol Required", description: "Please enter a stock symbol to generate a signal" });
      return;
    }
    const upper = trimmed.toUpperCase();
    try {
      const signal = await mutation.mutateAsync({ symbol: upper });
      toast({ title: "Signal Generated", description: `Created new signal for ${signal.symbol || upper}` });
      onOpenChange(false);
    } catch {
      toast({ variant: "destructive", title: "Generation Failed", description: "Could not generate signal for this symbol" });
    }
  };

  const messageId = `${id}-message`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <SparklesIcon aria-hidden />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Generate Signal</DialogTitle>
          <DialogDescription>Analyze one stock now and issue a signal for it if a strategy finds a setup.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-symbol`}>Stock Symbol</Label>
            <Input
              id={`${id}-symbol`}
              value={symbol}
              onChange={(e) => setSymbol(e.target.value.toUpperCase())}
              placeholder="e.g. AAPL"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={10}
              aria-invalid={Boolean(failure?.field)}
              aria-describedby={failure?.field ? messageId : undefined}
            />
            {failure?.field ? (
              <p id={messageId} className="text-[0.8rem] font-medium text-destructive-strong">
                {failure.field}
              </p>
            ) : null}
          </div>
          {failure?.note ? (
            <div role="alert" className="rounded-lg border bg-muted/50 p-3 text-sm">
              <p>{failure.note}</p>
              {failure.upgrade ? (
                <Link to="/pricing" className="mt-1 inline-block font-medium text-primary-strong underline-offset-4 hover:underline">
                  See plans
                </Link>
              ) : null}
            </div>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? "Generating..." : "Generate"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
