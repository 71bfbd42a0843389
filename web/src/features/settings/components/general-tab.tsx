import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { useId } from "react";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { DISPLAY_CURRENCIES } from "@/lib/api/enums";
import type { DisplayCurrency, Theme, User } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { useTheme } from "@/lib/theme";
import { cn } from "@/lib/utils";
import { rateFor, useExchangeRates } from "../api/get-exchange-rates";
import { useUserSettings } from "../api/get-user-settings";
import { useUpdateUserSettings } from "../api/update-user-settings";
import { CURRENCY_LABELS, CURRENCY_SCOPE_NOTE } from "../lib/currency";
import { UserSettingsState } from "./user-settings-state";
import { displayCurrencyOf } from "./user-settings-sync";

const THEME_OPTIONS: { value: Theme; label: string; Icon: typeof SunIcon }[] = [
  { value: "light", label: "Light", Icon: SunIcon },
  { value: "dark", label: "Dark", Icon: MoonIcon },
  { value: "system", label: "System", Icon: MonitorIcon },
];

const memberSince = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });

type Account = Pick<User, "email" | "username" | "firstName" | "lastName" | "createdAt"> & Partial<Pick<User, "emailVerified">>;

function AccountCard({ account }: { account: Account }) {
  const id = useId();
  const name = [account.firstName, account.lastName].filter(Boolean).join(" ") || "Not set";
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Account</CardTitle>
        <CardDescription>The details you signed up with.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input id={`${id}-email`} value={account.email} disabled readOnly aria-describedby={`${id}-email-note`} />
          <p id={`${id}-email-note`} className="text-xs text-muted-foreground">
            {account.emailVerified === false ? "Not confirmed yet: open the link we sent you. " : ""}Email cannot be changed. Contact
            support if needed.
          </p>
          {account.emailVerified === false ? <ResendLinkButton email={account.email} className="w-fit" /> : null}
        </div>
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">Username</dt>
            <dd className="mt-0.5 font-medium break-all">{account.username}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Name</dt>
            <dd className="mt-0.5 font-medium">{name}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Member since</dt>
            <dd className="mt-0.5 font-medium">{memberSince.format(new Date(account.createdAt))}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * The theme applies at once here and is saved to the account by `UserSettingsSync`, which
 * saves every change of the local theme (this one, the header's toggle) while signed in.
 */
function ThemeCard() {
  const { theme, setTheme } = useTheme();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle id="settings-theme-title">Theme</CardTitle>
        <CardDescription>Choose a theme, or follow your system setting. It is saved to your account.</CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <div role="radiogroup" aria-labelledby="settings-theme-title" className="grid grid-cols-3 gap-3">
          {THEME_OPTIONS.map(({ value, label, Icon }) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={theme === value}
              onClick={() => setTheme(value)}
              className={cn(
                "flex flex-col items-center gap-2 rounded-lg border p-4 text-sm font-medium transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                theme === value && "border-primary bg-primary/5 text-primary-strong ring-1 ring-primary",
              )}
            >
              <Icon className="size-5" aria-hidden />
              {label}
            </button>
          ))}
        </div>
      </CardContent>
    </Card>
  );
}

function RatesNote({ currency }: { currency: DisplayCurrency }) {
  const rates = useExchangeRates({ enabled: currency !== "USD" });
  if (currency === "USD") return <>Amounts are shown in US dollars, as they are stored.</>;
  if (rates.isPending) return <>Loading the exchange rate…</>;
  const rate = rateFor(rates.data, currency);
  if (rates.isError || rate === null || !rates.data) {
    return <>Exchange rates are unavailable right now, so amounts are shown in US dollars until they return.</>;
  }
  return (
    <>
      Converted from US dollars at 1 USD = {rate.toFixed(4)} {currency} ({rates.data.provider}, {formatDateTime(rates.data.asOf)}).
    </>
  );
}

function CurrencyCard() {
  const id = useId();
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  const currency = displayCurrencyOf(settings.data);
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Currency</CardTitle>
        <CardDescription>The currency values, P&amp;L, capital and limits are shown in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 pt-5">
        <UserSettingsState rows={1}>
          {() => (
            <>
              <Label htmlFor={`${id}-currency`}>Display currency</Label>
              <NativeSelect
                id={`${id}-currency`}
                className="sm:max-w-xs"
                value={currency}
                aria-describedby={`${id}-currency-note`}
                onChange={(event) => update.mutate({ currency: event.target.value as DisplayCurrency })}
              >
                {DISPLAY_CURRENCIES.map((value) => (
                  <option key={value} value={value}>
                    {CURRENCY_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
              <div id={`${id}-currency-note`} className="grid gap-1 text-[0.8rem] text-muted-foreground">
                <p>
                  <RatesNote currency={currency} /> Plans are priced and billed in US dollars.
                </p>
                <p data-testid="currency-scope">{CURRENCY_SCOPE_NOTE}</p>
              </div>
            </>
          )}
        </UserSettingsState>
      </CardContent>
    </Card>
  );
}

/** General: the account's email (read-only), the theme and the display currency. */
export function GeneralTab({ account }: { account: Account }) {
  return (
    <div className="grid gap-6">
      <AccountCard account={account} />
      <ThemeCard />
      <CurrencyCard />
    </div>
  );
}
