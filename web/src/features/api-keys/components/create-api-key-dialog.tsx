import { PlusIcon, TriangleAlertIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiError, errorMessage } from "@/lib/api/client";
import { isUnconfirmedAddressRefusal } from "@/lib/api/email-confirmation";
import { KEY_LIFETIMES, KEY_PERMISSIONS } from "@/lib/api/enums";
import type { CreatedApiKey, KeyLifetime, KeyPermission } from "@/lib/api/models";
import { useTradingAccounts } from "@/lib/api/trading-accounts";
import { toast } from "@/lib/toast";
import { useCreateApiKey } from "../api/create-api-key";
import {
  CURRENT_ACCOUNT,
  DEFAULT_LIFETIME,
  DEFAULT_PERMISSION,
  keyAccountId,
  keyName,
  LIFETIME_LABELS,
  offersAccountChoice,
  PERMISSION_DESCRIPTIONS,
  PERMISSION_LABELS,
} from "../lib/api-keys";

const FIELDS = ["name", "permissions", "expiresIn", "accountId"] as const;

type FieldErrors = Partial<Record<(typeof FIELDS)[number], string>>;

/** The server's field errors (422), by field. */
function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const found: FieldErrors = {};
  for (const { field, message } of error.fieldErrors) {
    const known = FIELDS.find((f) => f === field);
    if (known) found[known] ??= message;
  }
  return found;
}

/**
 * Create API Key: a name (required after trimming: toast 'Please enter a name for your API
 * key'), a permission (default Read Only), an expiration (default Never) and, for a user who
 * holds more than one trading account, the account the key acts on (default the current one,
 * which follows a switch: no `accountId` is sent). On success the
 * dialog closes and `onCreated` receives the whole key, to be shown once. An account whose
 * address is unconfirmed is refused (403): the server's reason is shown in the dialog with
 * "Send a new link".
 */
export function CreateApiKeyDialog({
  onCreated,
  disabled,
  describedBy,
}: {
  onCreated: (created: CreatedApiKey) => void;
  disabled?: boolean;
  /** The id of the text that says why the button is disabled. */
  describedBy?: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [permissions, setPermissions] = useState<KeyPermission>(DEFAULT_PERMISSION);
  const [expiresIn, setExpiresIn] = useState<KeyLifetime>(DEFAULT_LIFETIME);
  const [chosenAccount, setChosenAccount] = useState<string>(CURRENT_ACCOUNT);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [addressRefusal, setAddressRefusal] = useState<string | null>(null);
  const mutation = useCreateApiKey();
  const { data: accounts } = useTradingAccounts();
  // A chosen account that has since left the list falls back to the current account.
  const accountId = keyAccountId(chosenAccount, accounts);
  const accountName = accounts?.accounts?.find((a) => a.id === accountId)?.name;

  const reset = () => {
    setName("");
    setPermissions(DEFAULT_PERMISSION);
    setExpiresIn(DEFAULT_LIFETIME);
    setChosenAccount(CURRENT_ACCOUNT);
    setErrors({});
    setAddressRefusal(null);
    mutation.reset();
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) reset();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = keyName(name);
    if (!trimmed) {
      setErrors({ name: "Enter a name" });
      document.getElementById(`${id}-name`)?.focus();
      toast({ variant: "destructive", title: "Name Required", description: "Please enter a name for your API key" });
      return;
    }
    setErrors({});
    setAddressRefusal(null);
    let created: CreatedApiKey;
    try {
      created = await mutation.mutateAsync({ name: trimmed, permissions, expiresIn, ...(accountId ? { accountId } : {}) });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      const reason = errorMessage(error, "Failed to create API key");
      const unconfirmed = isUnconfirmedAddressRefusal(error);
      if (unconfirmed) setAddressRefusal(reason);
      toast({ variant: "destructive", title: unconfirmed ? "Email Not Confirmed" : "Error", description: reason });
      return;
    }
    onOpenChange(false);
    onCreated(created);
  };

  const pending = mutation.isPending;
  const described = (field: keyof FieldErrors, hint?: boolean) =>
    errors[field] ? `${id}-${field}-error` : hint ? `${id}-${field}-hint` : undefined;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button disabled={disabled} aria-describedby={describedBy}>
          <PlusIcon aria-hidden />
          Create API Key
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Create API Key</DialogTitle>
          <DialogDescription>The key is shown once, when it is created. Keep it secret, like a password.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Trading bot"
              maxLength={64}
              autoComplete="off"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={described("name", true)}
            />
            {errors.name ? (
              <p id={`${id}-name-error`} className="text-[0.8rem] font-medium text-destructive-strong">
                {errors.name}
              </p>
            ) : (
              <p id={`${id}-name-hint`} className="text-[0.8rem] text-muted-foreground">
                To tell your keys apart, e.g. where it is used.
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-permissions`}>Permissions</Label>
            <NativeSelect
              id={`${id}-permissions`}
              value={permissions}
              onChange={(e) => setPermissions(e.target.value as KeyPermission)}
              aria-invalid={Boolean(errors.permissions)}
              aria-describedby={described("permissions", true)}
            >
              {KEY_PERMISSIONS.map((value) => (
                <option key={value} value={value}>
                  {PERMISSION_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
            {errors.permissions ? (
              <p id={`${id}-permissions-error`} className="text-[0.8rem] font-medium text-destructive-strong">
                {errors.permissions}
              </p>
            ) : (
              <p id={`${id}-permissions-hint`} className="text-[0.8rem] text-muted-foreground">
                {PERMISSION_DESCRIPTIONS[permissions]}
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-expires`}>Expiration</Label>
            <NativeSelect
              id={`${id}-expires`}
              value={expiresIn}
              onChange={(e) => setExpiresIn(e.target.value as KeyLifetime)}
              aria-invalid={Boolean(errors.expiresIn)}
              aria-describedby={described("expiresIn")}
            >
              {KEY_LIFETIMES.map((value) => (
                <option key={value} value={value}>
                  {LIFETIME_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
            {errors.expiresIn ? (
              <p id={`${id}-expiresIn-error`} className="text-[0.8rem] font-medium text-destructive-strong">
                {errors.expiresIn}
              </p>
            ) : null}
          </div>
          {offersAccountChoice(accounts) ? (
            <div className="grid gap-2">
              <Label htmlFor={`${id}-accountId`}>Account</Label>
              <NativeSelect
                id={`${id}-accountId`}
                value={accountId ?? CURRENT_ACCOUNT}
                onChange={(e) => setChosenAccount(e.target.value)}
                aria-invalid={Boolean(errors.accountId)}
                aria-describedby={described("accountId", true)}
              >
                <option value={CURRENT_ACCOUNT}>Current account (follows your switch)</option>
                {accounts?.accounts?.map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.name}
                  </option>
                ))}
              </NativeSelect>
              {errors.accountId ? (
                <p id={`${id}-accountId-error`} className="text-[0.8rem] font-medium text-destructive-strong">
                  {errors.accountId}
                </p>
              ) : (
                <p id={`${id}-accountId-hint`} className="text-[0.8rem] text-muted-foreground">
                  {accountName
                    ? `The key acts on ${accountName}, whichever account is current.`
                    : "The key acts on the account that is current when it is used."}
                </p>
              )}
            </div>
          ) : null}
          {addressRefusal ? (
            <div
              role="alert"
              data-testid="api-key-address-refusal"
              className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
            >
              <p className="flex gap-3">
                <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
                {addressRefusal}
              </p>
              <ResendLinkButton className="w-fit" />
            </div>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating..." : "Create Key"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
