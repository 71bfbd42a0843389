import { MailWarningIcon } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { QueryState } from "@/components/query-state";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { CreatedApiKey, Plan, PlanInfo } from "@/lib/api/models";
import { useApiKeys } from "../api/get-api-keys";
import { MAX_API_KEYS } from "../lib/api-keys";
import { ApiDocs } from "./api-docs";
import { ApiKeyList } from "./api-key-list";
import { CreateApiKeyDialog } from "./create-api-key-dialog";
import { CreatedKeyDialog } from "./created-key-dialog";

/**
 * API Keys: the list, creating a key (shown once), switching and deleting keys, and the API's
 * essentials. `children` go below them: the webhooks card, composed in src/app (features do not
 * import each other). Until the account's address is confirmed (`addressConfirmed` false) no key
 * can be created: the card says so and offers a new confirmation link.
 */
export function ApiKeysTab({
  plans,
  currentPlan,
  origin,
  addressConfirmed = true,
  email,
  children,
}: {
  plans: PlanInfo[] | undefined;
  currentPlan: Plan;
  origin: string;
  /** Whether the account's email address is confirmed (keys need it). */
  addressConfirmed?: boolean;
  /** The account's address, named in the notice while it is unconfirmed. */
  email?: string;
  children?: ReactNode;
}) {
  const id = useId();
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const full = (keys.data?.length ?? 0) >= MAX_API_KEYS;

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b pb-4">
          <div className="grid gap-1.5">
            <CardTitle>API Keys</CardTitle>
            <CardDescription>
              {keys.data ? `${keys.data.length} of ${MAX_API_KEYS} keys. ` : ""}Keys let your programs use the Strikeline API.
            </CardDescription>
          </div>
          <CreateApiKeyDialog
            onCreated={setCreated}
            disabled={full || !addressConfirmed}
            describedBy={addressConfirmed ? undefined : `${id}-unconfirmed`}
          />
        </CardHeader>
        <CardContent className="grid gap-4 pt-5">
          {addressConfirmed ? null : (
            <div
              className="flex flex-wrap items-center gap-3 rounded-lg bg-muted/60 px-3 py-2.5 text-sm"
              data-testid="api-keys-unconfirmed"
            >
              <p id={`${id}-unconfirmed`} className="flex min-w-0 flex-1 basis-60 items-start gap-2 text-muted-foreground">
                <MailWarningIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>Confirm your email address to create API keys: open the link we sent{email ? ` to ${email}` : " you"}.</span>
              </p>
              <ResendLinkButton email={email} />
            </div>
          )}
          <QueryState
            query={keys}
            loadingLabel="Loading your API keys"
            skeleton={<SkeletonRows count={2} className="h-16 w-full" />}
            errorTitle="Failed to fetch API keys"
          >
            {(list) => (
              <>
                {full ? (
                  <p className="mb-4 text-sm text-muted-foreground">
                    You hold {MAX_API_KEYS} keys, the most allowed. Delete one to create another.
                  </p>
                ) : null}
                <ApiKeyList keys={list} />
              </>
            )}
          </QueryState>
        </CardContent>
      </Card>
      <ApiDocs origin={origin} plans={plans} currentPlan={currentPlan} />
      <CreatedKeyDialog created={created} onDone={() => setCreated(null)} />
      {children}
    </div>
  );
}
