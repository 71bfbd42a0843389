import { AlertCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/** Product spec, section 8: the settings could not be read. */
export const FETCH_SETTINGS_FAILED = "Failed to fetch preferences";

/** What a settings card shows while the settings load. */
export function SettingsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label="Loading your settings">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </div>
  );
}

/** What a settings card shows when the settings could not be read, with a way to try again. */
export function SettingsFetchError({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/30 bg-destructive/5 p-4 text-sm"
    >
      <p className="inline-flex items-center gap-2 font-medium text-destructive-strong">
        <AlertCircleIcon className="size-4" aria-hidden />
        {FETCH_SETTINGS_FAILED}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
