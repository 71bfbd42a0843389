import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  addDays,
  addMonths,
  clampDate,
  dayOfWeek,
  formatFullDate,
  formatMonthYear,
  isIsoDate,
  monthWeeks,
  startOfMonth,
  todayIso,
} from "@/lib/calendar";
import { cn } from "@/lib/utils";

const WEEKDAYS = [
  ["Su", "Sunday"],
  ["Mo", "Monday"],
  ["Tu", "Tuesday"],
  ["We", "Wednesday"],
  ["Th", "Thursday"],
  ["Fr", "Friday"],
  ["Sa", "Saturday"],
] as const;

type CalendarProps = {
  /** The selected date, `YYYY-MM-DD`; none when empty. */
  value: string;
  onSelect: (iso: string) => void;
  /** Dates before `min` and after `max` are disabled. */
  min?: string;
  max?: string;
  /** Moves focus to the selected (or today's) date when it mounts, e.g. in a popover. */
  autoFocus?: boolean;
  className?: string;
};

/**
 * A month grid to pick a date (the WAI-ARIA date picker dialog pattern): the days are
 * buttons in a grid with one tab stop; arrows move by a day or a week, Home and End to the
 * week's ends, Page Up and Page Down by a month (with Shift, a year), Enter or Space picks.
 * Disabled dates (before `min`, after `max`) cannot be picked or reached.
 */
export function Calendar({ value, onSelect, min, max, autoFocus = false, className }: CalendarProps) {
  const headingId = useId();
  const today = todayIso();
  const initial = clampDate(isIsoDate(value) ? value : today, min, max);
  const [focused, setFocused] = useState(initial);
  const [month, setMonth] = useState(startOfMonth(initial));
  const grid = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(autoFocus);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focused}"]`)?.focus();
  }, [focused, month]);

  const isDisabled = (iso: string) => (min !== undefined && iso < min) || (max !== undefined && iso > max);

  const focusDate = (iso: string) => {
    const next = clampDate(iso, min, max);
    moveFocus.current = true;
    setFocused(next);
    setMonth(startOfMonth(next));
  };

  const showMonth = (delta: number) => {
    const nextMonth = addMonths(month, delta);
    setMonth(nextMonth);
    // Keep the roving tab stop inside the month on screen.
    const candidate = clampDate(addMonths(focused, delta), min, max);
    if (startOfMonth(candidate) === nextMonth) setFocused(candidate);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, iso: string) => {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(iso, -1),
      ArrowRight: () => addDays(iso, 1),
      ArrowUp: () => addDays(iso, -7),
      ArrowDown: () => addDays(iso, 7),
      Home: () => addDays(iso, -dayOfWeek(iso)),
      End: () => addDays(iso, 6 - dayOfWeek(iso)),
      PageUp: () => addMonths(iso, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(iso, event.shiftKey ? 12 : 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    focusDate(move());
  };

  const prevDisabled = min !== undefined && addDays(month, -1) < min;
  const nextDisabled = max !== undefined && addMonths(month, 1) > max;
  // The roving tab stop: the focused date when it is on screen, else the month's first enabled day.
  const tabStop =
    startOfMonth(focused) === month
      ? focused
      : (monthWeeks(month)
          .flat()
          .find((d): d is string => d !== null && !isDisabled(d)) ?? null);

  return (
    <div className={cn("grid w-[17.5rem] max-w-full gap-2", className)} data-testid="calendar">
      <div className="flex items-center justify-between gap-2">
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={() => showMonth(-1)}
          disabled={prevDisabled}
          aria-label="Previous month"
        >
          <ChevronLeftIcon aria-hidden />
        </Button>
        <h2 id={headingId} className="text-sm font-semibold" aria-live="polite">
          {formatMonthYear(month)}
        </h2>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={() => showMonth(1)}
          disabled={nextDisabled}
          aria-label="Next month"
        >
          <ChevronRightIcon aria-hidden />
        </Button>
      </div>
      <table ref={grid} role="grid" aria-labelledby={headingId} className="w-full border-collapse text-center text-sm">
        <thead>
          <tr>
            {WEEKDAYS.map(([short, long]) => (
              <th key={short} scope="col" abbr={long} className="pb-1 text-xs font-medium text-muted-foreground">
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week, w) => (
            <tr key={w}>
              {week.map((iso, d) => {
                if (!iso) return <td key={d} />;
                const selected = iso === value;
                const disabled = isDisabled(iso);
                return (
                  <td key={iso} className="p-0.5" aria-selected={selected}>
                    <button
                      type="button"
                      data-date={iso}
                      tabIndex={iso === tabStop ? 0 : -1}
                      disabled={disabled}
                      aria-label={formatFullDate(iso)}
                      aria-current={iso === today ? "date" : undefined}
                      onClick={() => {
                        setFocused(iso);
                        onSelect(iso);
                      }}
                      onKeyDown={(e) => onKeyDown(e, iso)}
                      className={cn(
                        "inline-flex size-9 items-center justify-center rounded-md text-sm tabular transition-colors outline-none",
                        "hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                        "disabled:pointer-events-none disabled:text-muted-foreground/60 disabled:line-through",
                        iso === today && !selected && "font-semibold text-primary-strong",
                        selected && "bg-primary text-primary-foreground hover:bg-primary hover:text-primary-foreground",
                      )}
                    >
                      {Number(iso.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
