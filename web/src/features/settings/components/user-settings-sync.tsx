import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { DISPLAY_CURRENCIES, isOneOf } from "@/lib/api/enums";
import type { DisplayCurrency, UserSettings } from "@/lib/api/models";
import { setMoneyDisplay } from "@/lib/money-display";
import { queryKeys } from "@/lib/query-keys";
import { getTheme, isTheme, setTheme, subscribeTheme } from "@/lib/theme";
import { rateFor, useExchangeRates } from "../api/get-exchange-rates";
import { useUserSettings } from "../api/get-user-settings";
import { useUpdateUserSettings } from "../api/update-user-settings";

/** The display currency the settings name; dollars until they arrive, or for a value this app does not know. */
export function displayCurrencyOf(settings: Pick<UserSettings, "currency"> | undefined): DisplayCurrency {
  return settings && isOneOf(DISPLAY_CURRENCIES, settings.currency) ? settings.currency : "USD";
}

/**
 * Applies a signed-in user's saved settings to the whole app (mounted once while signed in;
 * renders nothing):
 *
 * - Money: in the chosen currency at the rates of GET /api/exchange-rates (fetched only for
 *   EUR or GBP). Dollars while the rates load, when they fail, and after signing out.
 * - Theme: the saved theme wins when the settings first arrive; from then on every change of
 *   the local theme (the settings page, the header's toggle, another tab) is saved. A change
 *   made before the settings arrived is saved instead of being overwritten.
 */
export function UserSettingsSync() {
  const queryClient = useQueryClient();
  const { data: settings } = useUserSettings();
  const { mutate } = useUpdateUserSettings();
  const currency = displayCurrencyOf(settings);
  const rates = useExchangeRates({ enabled: currency !== "USD" });
  const perUsd = rateFor(rates.data, currency);

  useEffect(() => {
    setMoneyDisplay(perUsd === null ? null : { currency, perUsd });
  }, [currency, perUsd]);
  useEffect(() => () => setMoneyDisplay(null), []);

  const serverTheme = settings && isTheme(settings.theme) ? settings.theme : undefined;
  const applied = useRef(false);
  const changedLocally = useRef(false);
  const save = useRef(mutate);
  useEffect(() => {
    save.current = mutate;
  }, [mutate]);

  useEffect(() => {
    if (!serverTheme || applied.current) return;
    applied.current = true;
    const local = getTheme();
    if (local === serverTheme) return;
    if (changedLocally.current) save.current({ theme: local });
    else setTheme(serverTheme);
  }, [serverTheme]);

  useEffect(
    () =>
      subscribeTheme(() => {
        if (!applied.current) {
          changedLocally.current = true;
          return;
        }
        const theme = getTheme();
        const saved = queryClient.getQueryData<UserSettings>(queryKeys.userSettings())?.theme;
        if (saved !== undefined && saved !== theme) save.current({ theme });
      }),
    [queryClient],
  );

  return null;
}
