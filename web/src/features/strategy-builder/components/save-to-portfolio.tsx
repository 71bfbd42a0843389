import { BriefcaseIcon, Loader2Icon } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** The most characters a saved position's name may have (the server's limit). */
export const MAX_NAME_LENGTH = 80;

/** Where saved positions are listed. */
export const PORTFOLIO_PATH = "/portfolio";

/**
 * "Save to portfolio": the builder's legs kept as a multi-leg position, under an optional
 * name (`placeholder` is the one the server gives when it is left empty). The page owns the
 * request; this shows its state: pending, the name's error, any other refusal, and once saved
 * the way to the portfolio.
 */
export function SaveToPortfolio({
  name,
  onNameChange,
  placeholder,
  onSave,
  pending,
  nameError,
  error,
  savedAs,
}: {
  name: string;
  onNameChange: (name: string) => void;
  placeholder: string;
  onSave: () => void;
  pending: boolean;
  nameError?: string;
  /** A refusal not tied to the name or a leg's field (the plan, the limit, the server's reason). */
  error?: string | null;
  /** The saved position's name, once this position was saved. */
  savedAs?: string | null;
}) {
  const id = useId();
  return (
    <Card data-testid="save-to-portfolio">
      <CardContent className="pt-6">
        <form
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"
          onSubmit={(e) => {
            e.preventDefault();
            if (!pending) onSave();
          }}
        >
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${id}-name`}>Name (optional)</Label>
            <Input
              id={`${id}-name`}
              value={name}
              maxLength={MAX_NAME_LENGTH}
              placeholder={placeholder}
              onChange={(e) => onNameChange(e.target.value)}
              aria-invalid={Boolean(nameError) || undefined}
              aria-describedby={`${id}-name-message`}
              autoComplete="off"
            />
            <p
              id={`${id}-name-message`}
              className={cn("text-[0.8rem]", nameError ? "font-medium text-destructive-strong" : "text-muted-foreground")}
            >
              {nameError ?? `Left empty, it is saved as “${placeholder}”. Entry prices left empty are the model's price now.`}
            </p>
          </div>
          <Button type="submit" className="sm:mt-[1.375rem]" disabled={pending}>
            {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <BriefcaseIcon aria-hidden />}
            {pending ? "Saving…" : "Save to portfolio"}
          </Button>
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive-strong sm:col-span-2">
              {error}
            </p>
          ) : null}
          <p role="status" className="text-sm text-muted-foreground sm:col-span-2 empty:hidden">
            {savedAs ? (
              <>
                Saved to your portfolio as “{savedAs}”.{" "}
                <Link to={PORTFOLIO_PATH} className="font-medium text-primary-strong underline underline-offset-4">
                  View portfolio
                </Link>
              </>
            ) : null}
          </p>
        </form>
      </CardContent>
    </Card>
  );
}
