import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { UserSettings, UserSettingsUpdate } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { toast } from "@/lib/toast";

export const UPDATE_SETTINGS_MUTATION_KEY = ["update-user-settings"] as const;

/** A setting that could not be saved, toasted under "Error". */
export const UPDATE_SETTINGS_FAILED = "Failed to update settings. Please try again.";

/**
 * PUT /api/user/preferences with the settings that changed → every setting as stored;
 * 422 problem+json when a value is not valid.
 */
export function updateUserSettings(body: UserSettingsUpdate): Promise<UserSettings> {
  return dataOf(api.PUT("/api/user/preferences", { body }));
}

/** The fields an update sets (null and absent fields keep their values on the server). */
export function changedSettings(update: UserSettingsUpdate): Partial<UserSettings> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== null && value !== undefined)) as Partial<UserSettings>;
}

type Context = { previous: Partial<UserSettings> };

/**
 * Saves a change as it is made: the cached settings show it at once; a failure puts back
 * what the change replaced (other changes made meanwhile stay) and toasts
 * UPDATE_SETTINGS_FAILED. The answer of the last save in flight becomes the cache; the user is refetched
 * too, since it carries the notification switches and the risk tolerance.
 */
export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation<UserSettings, Error, UserSettingsUpdate, Context>({
    mutationKey: UPDATE_SETTINGS_MUTATION_KEY,
    mutationFn: updateUserSettings,
    onMutate: async (update) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.userSettings() });
      const changes = changedSettings(update);
      const current = queryClient.getQueryData<UserSettings>(queryKeys.userSettings());
      const previous: Partial<UserSettings> = {};
      if (current) {
        for (const key of Object.keys(changes) as (keyof UserSettings)[]) {
          Object.assign(previous, { [key]: current[key] });
        }
        queryClient.setQueryData<UserSettings>(queryKeys.userSettings(), { ...current, ...changes });
      }
      return { previous };
    },
    onError: (_error, _update, context) => {
      if (context) {
        queryClient.setQueryData<UserSettings>(queryKeys.userSettings(), (current) =>
          current ? { ...current, ...context.previous } : current,
        );
      }
      toast({ variant: "destructive", title: "Error", description: UPDATE_SETTINGS_FAILED });
    },
    onSuccess: (saved, update) => {
      // An earlier answer would undo the later changes still in flight: only the last one counts.
      if (queryClient.isMutating({ mutationKey: UPDATE_SETTINGS_MUTATION_KEY }) <= 1) {
        queryClient.setQueryData(queryKeys.userSettings(), saved);
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
      // The risk tolerance is the current trading account's, which Settings › Trading accounts lists.
      if (update.riskTolerance != null) void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts() });
    },
  });
}
