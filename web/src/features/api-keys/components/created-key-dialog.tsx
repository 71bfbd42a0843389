import { ShownOnceDialog } from "@/components/shown-once-dialog";
import type { CreatedApiKey } from "@/lib/api/models";

/** A new key, shown in full this once: afterwards only its prefix is ever shown. */
export function CreatedKeyDialog({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <ShownOnceDialog
      secret={created?.key ?? null}
      onDone={onDone}
      title="Your new API key"
      description={
        <>
          {created?.apiKey.name}: send it as <code className="font-mono text-xs text-foreground">Authorization: Bearer &lt;key&gt;</code>.
        </>
      }
      warning="Copy this key now. It is not stored and cannot be shown again; if you lose it, create a new one."
      label="API key"
      copyLabel="API key"
      id="created-key-label"
      testId="created-api-key"
    />
  );
}
