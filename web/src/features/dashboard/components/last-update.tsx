import { useEffect, useState } from "react";
import { formatLastUpdate } from "@/lib/format";

const TICK_MS = 15_000;

/** "Last update: Just now / N min ago", re-rendered as time passes. */
export function LastUpdate({ updatedAt }: { updatedAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [updatedAt]);

  return (
    <div className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1.5 text-xs text-muted-foreground shadow-xs">
      <span className="relative flex size-2">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-positive opacity-60 motion-reduce:hidden" />
        <span className="relative inline-flex size-2 rounded-full bg-positive" />
      </span>
      <span>
        Last update: <span className="font-medium text-foreground">{formatLastUpdate(updatedAt, now)}</span>
      </span>
    </div>
  );
}
