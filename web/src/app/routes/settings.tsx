import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useUser } from "@/features/auth/api/get-me";
import { planLabel } from "@/features/auth/lib/plan";
import { type Theme, useTheme } from "@/lib/theme";
import { cn } from "@/lib/utils";
import { usePageMeta } from "@/lib/page-meta";

const THEME_OPTIONS: { value: Theme; label: string; Icon: typeof SunIcon }[] = [
  { value: "light", label: "Light", Icon: SunIcon },
  { value: "dark", label: "Dark", Icon: MoonIcon },
  { value: "system", label: "System", Icon: MonitorIcon },
];

const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });

export default function SettingsRoute() {
  usePageMeta("Settings", "Your account, appearance and subscription.");
  const { user } = useUser();
  const { theme, setTheme } = useTheme();
  if (!user) return null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || "Not set";

  return (
    <div className="grid gap-6">
      <PageHeader title="Settings" description="Your account, appearance and subscription." />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader className="border-b pb-4">
            <CardTitle>Account</CardTitle>
            <CardDescription>The details you signed up with.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 pt-5">
            <div className="grid gap-2">
              <Label htmlFor="settings-email">Email</Label>
              <Input id="settings-email" value={user.email} disabled readOnly aria-describedby="settings-email-note" />
              <p id="settings-email-note" className="text-xs text-muted-foreground">
                Email cannot be changed. Contact support if needed.
              </p>
            </div>
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-muted-foreground">Username</dt>
                <dd className="mt-0.5 font-medium">{user.username}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Name</dt>
                <dd className="mt-0.5 font-medium">{name}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Member since</dt>
                <dd className="mt-0.5 font-medium">{dateFormat.format(new Date(user.createdAt))}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Plan</dt>
                <dd className="mt-0.5 font-medium">{planLabel(user, Date.now())}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="border-b pb-4">
            <CardTitle>Appearance</CardTitle>
            <CardDescription>Choose a theme, or follow your system setting.</CardDescription>
          </CardHeader>
          <CardContent className="pt-5">
            <div role="radiogroup" aria-label="Theme" className="grid grid-cols-3 gap-3">
              {THEME_OPTIONS.map(({ value, label, Icon }) => (
                <button
                  key={value}
                  type="button"
                  role="radio"
                  aria-checked={theme === value}
                  onClick={() => setTheme(value)}
                  className={cn(
                    "flex flex-col items-center gap-2 rounded-lg border p-4 text-sm font-medium transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                    theme === value && "border-primary bg-primary/5 text-primary ring-1 ring-primary",
                  )}
                >
                  <Icon className="size-5" aria-hidden />
                  {label}
                </button>
              ))}
            </div>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
