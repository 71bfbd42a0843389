import type { ReactNode } from "react";
import { QueryState } from "@/components/query-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { UserSettings } from "@/lib/api/models";
import { FETCH_SETTINGS_FAILED, useUserSettings } from "../api/get-user-settings";

/**
 * A settings card's content once the user's settings are read: `rows` placeholders while they
 * load, "Failed to fetch preferences" with "Try again" when they cannot be.
 */
export function UserSettingsState({ rows = 3, children }: { rows?: number; children: (settings: UserSettings) => ReactNode }) {
  const settings = useUserSettings();
  return (
    <QueryState
      query={settings}
      loadingLabel="Loading your settings"
      skeleton={<SkeletonRows count={rows} className="h-12 w-full" />}
      skeletonClassName="gap-4"
      errorTitle={FETCH_SETTINGS_FAILED}
      errorLayout="banner"
    >
      {children}
    </QueryState>
  );
}
