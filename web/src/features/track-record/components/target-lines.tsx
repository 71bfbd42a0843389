import { CheckCircle2Icon, XCircleIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { type TargetVerdict, verdictText } from "../lib/calibration";

/**
 * The published targets, one line each: "Calibration target ECE ≤ 0.05: missed (0.0731)".
 * A missed target says "missed" in words and in a badge with its own icon and colour, never
 * colour alone (the badge repeats the line's words, so screen readers hear them once).
 */
export function TargetLines({ verdicts }: { verdicts: readonly TargetVerdict[] }) {
  return (
    <ul className="grid gap-2 sm:grid-cols-2" aria-label="Published targets">
      {verdicts.map((verdict) => {
        const Icon = verdict.met ? CheckCircle2Icon : XCircleIcon;
        return (
          <li
            key={verdict.id}
            data-testid={`target-${verdict.id}`}
            className={cn(
              "flex items-start gap-3 rounded-lg border px-4 py-3 text-sm",
              verdict.met ? "border-positive/40 bg-positive/5" : "border-destructive/40 bg-destructive/5",
            )}
          >
            <Badge
              aria-hidden
              variant="outline"
              className={cn(
                "mt-px shrink-0 gap-1 px-2",
                verdict.met ? "border-positive/50 text-positive-strong" : "border-destructive/50 text-destructive-strong",
              )}
            >
              <Icon aria-hidden />
              {verdict.met ? "Met" : "Missed"}
            </Badge>
            <span>
              {verdict.label}: <span className="font-semibold tabular">{verdictText(verdict)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
