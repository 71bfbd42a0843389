import { useId } from "react";
import type * as React from "react";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";

type SettingSwitchProps = {
  label: string;
  description: React.ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
};

/** One on/off setting: its name and what it does on the left, the switch on the right. */
export function SettingSwitch({ label, description, checked, onCheckedChange, disabled }: SettingSwitchProps) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="grid min-w-0 gap-1">
        <Label htmlFor={id} className="cursor-pointer">
          {label}
        </Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={`${id}-description`}
        className="mt-0.5"
      />
    </div>
  );
}
