import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { copyText } from "@/lib/clipboard";
import { toast } from "@/lib/toast";

/** How long the "Copied" indicator stays: 2 seconds. */
export const COPIED_MS = 2000;

/** Copies `text`; shows "Copied" for two seconds. `label` names what is copied, for screen readers. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const onClick = async () => {
    if (await copyText(text)) setCopied(true);
    else toast({ variant: "destructive", title: "Copy failed", description: "Select the text and copy it by hand." });
  };

  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={() => void onClick()}
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
    >
      {copied ? <CheckIcon className="text-positive" aria-hidden /> : <CopyIcon aria-hidden />}
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </Button>
  );
}
