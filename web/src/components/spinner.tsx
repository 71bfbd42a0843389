import { Loader2Icon } from "lucide-react";
import { cn } from "@/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex">
      <Loader2Icon aria-hidden className={cn("size-6 animate-spin text-primary", className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner centred in the viewport, shown while the session loads. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-background" data-testid="auth-loading">
      <Spinner className="size-8" />
    </div>
  );
}
