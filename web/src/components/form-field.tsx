import type * as React from "react";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

type FormFieldProps = {
  id: string;
  label: React.ReactNode;
  error?: string;
  hint?: React.ReactNode;
  className?: string;
  /** Receives the ids to wire into the control's aria attributes. */
  children: (aria: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => React.ReactNode;
};

/** A label, a control and the message under it (an error, else an optional hint). */
export function FormField({ id, label, error, hint, className, children }: FormFieldProps) {
  const messageId = `${id}-message`;
  const hasMessage = Boolean(error || hint);
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": hasMessage ? messageId : undefined })}
      {error ? (
        <p id={messageId} className="text-[0.8rem] font-medium text-destructive-strong">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-[0.8rem] text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
