import { type ReactNode, useState } from "react";
import { QueryState } from "@/components/query-state";
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
 * import each other).
 */
export function ApiKeysTab({
  plans,
  currentPlan,
  origin,
  children,
}: {
  plans: PlanInfo[] | undefined;
  currentPlan: Plan;
  origin: string;
  children?: ReactNode;
}) {
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
          <CreateApiKeyDialog onCreated={setCreated} disabled={full} />
        </CardHeader>
        <CardContent className="pt-5">
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
