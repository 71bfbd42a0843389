import { KeyRoundIcon, Trash2Icon, WalletIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/lib/api/client";
import type { ApiKey } from "@/lib/api/models";
import { useTradingAccounts } from "@/lib/api/trading-accounts";
import { formatDateTime, timeAgo } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { useDeleteApiKey } from "../api/delete-api-key";
import { useToggleApiKey } from "../api/toggle-api-key";
import { isExpired, keyScope, MASK, PERMISSION_LABELS } from "../lib/api-keys";

const day = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
const dayOf = (instant: string) => {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : day.format(date);
};

/** `slk_AbCdEfGh` then dots: the rest of the key is never shown again. */
export function MaskedKey({ prefix }: { prefix: string }) {
  return (
    <code className="font-mono text-xs break-all text-muted-foreground">
      {prefix}
      <span aria-hidden>{MASK}</span>
      <span className="sr-only"> (rest of the key hidden)</span>
    </code>
  );
}

function expiryText(key: ApiKey, expired: boolean): string {
  if (!key.expiresAt) return "Never expires";
  return `${expired ? "Expired" : "Expires"} ${dayOf(key.expiresAt)}`;
}

function ApiKeyRow({
  apiKey,
  scope,
  now,
  onDelete,
}: {
  apiKey: ApiKey;
  /** The account it acts on, by name ("Current account" unscoped); undefined: not shown. */
  scope: string | undefined;
  now: number;
  onDelete: (key: ApiKey) => void;
}) {
  const toggle = useToggleApiKey();
  const expired = isExpired(apiKey, now);

  const onToggle = async (isActive: boolean) => {
    try {
      await toggle.mutateAsync({ id: apiKey.id, isActive });
    } catch (error) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to update API key") });
    }
  };

  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key-row">
      <div className="grid min-w-0 gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{apiKey.name}</span>
          <Badge variant="soft">{PERMISSION_LABELS[apiKey.permissions] ?? apiKey.permissions}</Badge>
          {expired ? <Badge variant="destructive">Expired</Badge> : null}
          {scope ? (
            <Badge
              variant="outline"
              className="max-w-full min-w-0"
              title={apiKey.accountId ? `Acts on ${scope}, whichever account is current` : "Acts on the account that is current"}
              data-testid="api-key-account"
            >
              <WalletIcon aria-hidden />
              <span className="sr-only">Account: </span>
              <span className="truncate">{scope}</span>
            </Badge>
          ) : null}
        </div>
        <MaskedKey prefix={apiKey.keyPrefix} />
        <p className="text-xs text-muted-foreground">
          Created {dayOf(apiKey.createdAt)}
          <span aria-hidden> · </span>
          <span className="sr-only">, </span>
          {apiKey.lastUsed ? (
            <span title={formatDateTime(apiKey.lastUsed)}>Last used {timeAgo(apiKey.lastUsed, now).toLowerCase()}</span>
          ) : (
            "Never used"
          )}
          <span aria-hidden> · </span>
          <span className="sr-only">, </span>
          {expiryText(apiKey, expired)}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <div className="flex items-center gap-2">
          <Switch
            checked={apiKey.isActive && !expired}
            disabled={toggle.isPending || expired}
            onCheckedChange={(checked) => void onToggle(checked)}
            aria-label={`${apiKey.name} active`}
          />
          <span aria-hidden className="min-w-14 text-sm text-muted-foreground">
            {expired ? "Expired" : apiKey.isActive ? "Active" : "Inactive"}
          </span>
        </div>
        <Button
          variant="ghost"
          size="icon"
          onClick={() => onDelete(apiKey)}
          className="text-muted-foreground hover:text-destructive-strong"
        >
          <Trash2Icon aria-hidden />
          <span className="sr-only">Delete {apiKey.name}</span>
        </Button>
      </div>
    </li>
  );
}

/** Asks before deleting: the key stops working for good. */
function DeleteApiKeyDialog({ apiKey, onOpenChange }: { apiKey: ApiKey | null; onOpenChange: (open: boolean) => void }) {
  const mutation = useDeleteApiKey();
  return (
    <ConfirmDeleteDialog
      open={apiKey !== null}
      onOpenChange={onOpenChange}
      title="Delete this API key?"
      description={apiKey ? `Requests with “${apiKey.name}” (${apiKey.keyPrefix}…) fail from now on. This cannot be undone.` : null}
      confirmLabel="Delete Key"
      pending={mutation.isPending}
      remove={() => (apiKey ? mutation.mutateAsync(apiKey.id) : Promise.resolve())}
      success={{ title: "API Key Deleted", description: apiKey ? `${apiKey.name} no longer works.` : "" }}
      failure="Failed to update API key"
    />
  );
}

/**
 * The user's keys: name, permission, the prefix and masked
 * characters, created, last used and expiry, an 'Expired' badge, the account the key acts on
 * (see `keyScope`); a switch per key (disabled
 * while its toggle is pending or when the key has expired) and delete with confirmation.
 */
export function ApiKeyList({ keys, now = Date.now() }: { keys: ApiKey[]; now?: number }) {
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const { data: accounts } = useTradingAccounts();
  if (keys.length === 0) {
    return (
      <EmptyState
        icon={KeyRoundIcon}
        title="No API keys yet"
        description="Create a key to read signals, stats and prices from your own programs."
        className="py-10"
      />
    );
  }
  return (
    <>
      <ul className="divide-y" aria-label="API keys">
        {keys.map((key) => (
          <ApiKeyRow key={key.id} apiKey={key} scope={keyScope(key, accounts)} now={now} onDelete={setDeleting} />
        ))}
      </ul>
      <DeleteApiKeyDialog
        apiKey={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </>
  );
}
