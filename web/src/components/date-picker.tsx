import { CalendarIcon } from "lucide-react";
import { useState } from "react";
import { Calendar } from "@/components/calendar";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { formatFullDate, isIsoDate } from "@/lib/calendar";
import { cn } from "@/lib/utils";

type DatePickerProps = {
  id: string;
  /** The id of the visible label: the button is named by it and by the date it shows. */
  labelId: string;
  /** `YYYY-MM-DD`, or "" for none. */
  value: string;
  onChange: (iso: string) => void;
  min?: string;
  max?: string;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
};

/** A button showing the chosen date that opens a calendar in a popover; picking a date closes it. */
export function DatePicker({
  id,
  labelId,
  value,
  onChange,
  min,
  max,
  placeholder = "Pick a date",
  invalid,
  describedBy,
  className,
}: DatePickerProps) {
  const [open, setOpen] = useState(false);
  const text = isIsoDate(value) ? formatFullDate(value) : placeholder;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          id={id}
          type="button"
          variant="outline"
          aria-labelledby={`${labelId} ${id}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(
            "h-10 w-full justify-start px-3 font-normal aria-invalid:border-destructive",
            !isIsoDate(value) && "text-muted-foreground",
            className,
          )}
        >
          <CalendarIcon aria-hidden className="text-muted-foreground" />
          <span className="truncate">{text}</span>
        </Button>
      </PopoverTrigger>
      <PopoverContent
        className="w-auto"
        aria-label="Choose a date"
        onOpenAutoFocus={(event) => {
          // Focus the selected day (the grid's tab stop) rather than the first button. Done
          // here, once the popover's focus scope is active, so a surrounding dialog lets it go.
          event.preventDefault();
          const content = event.currentTarget as HTMLElement | null;
          content?.querySelector<HTMLButtonElement>("button[data-date][tabindex='0']")?.focus();
        }}
      >
        <Calendar
          value={value}
          min={min}
          max={max}
          onSelect={(iso) => {
            onChange(iso);
            setOpen(false);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}
