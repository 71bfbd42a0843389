import { PageHeader } from "@/components/page-header";
import { Spinner } from "@/components/spinner";
import { useUser } from "@/features/auth/api/get-me";
import { InvestmentPreferencesForm } from "@/features/preferences/components/investment-preferences-form";
import { usePageMeta } from "@/lib/page-meta";

export default function PreferencesRoute() {
  usePageMeta("Investment Preferences", "Capital, risk and strategies used to match signals to your account.");
  const { user, isLoading } = useUser();
  return (
    <div className="grid gap-6">
      <PageHeader title="Investment Preferences" description="Capital, risk and strategies used to match signals to your account." />
      {isLoading ? (
        <div className="flex justify-center py-16" aria-busy="true">
          <Spinner label="Loading your preferences" />
        </div>
      ) : user ? (
        <InvestmentPreferencesForm user={user} />
      ) : null}
    </div>
  );
}
