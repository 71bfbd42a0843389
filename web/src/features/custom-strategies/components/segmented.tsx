import { cn } from "@/lib/utils";

/**
 * A choice of two or three shown side by side: radio buttons (arrow keys move between them),
 * the chosen one filled. `legend` names the group for screen readers and, unless
 * `legendHidden`, on screen.
 */
export function Segmented<T extends string>({
  name,
  legend,
  legendHidden = false,
  value,
  options,
  onChange,
  disabled,
  className,
}: {
  name: string;
  legend: string;
  legendHidden?: boolean;
  value: T;
  options: readonly { value: T; label: string; disabled?: boolean }[];
  onChange: (value: T) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <fieldset className={cn("grid content-start gap-1.5", className)} disabled={disabled}>
      <legend className={cn("mb-1.5 text-sm font-medium", legendHidden && "sr-only")}>{legend}</legend>
      <div className="inline-flex w-fit max-w-full flex-wrap rounded-md border bg-card p-0.5">
        {options.map((option) => (
          <label
            key={option.value}
            className={cn(
              "cursor-pointer rounded px-3 py-1.5 text-sm font-medium has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
              value === option.value ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:text-foreground",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
