import { AuditLogCard } from "./audit-log-card";
import { ChangePasswordForm } from "./change-password-form";
import { DeleteAccountCard } from "./delete-account-card";
import { ExportDataCard } from "./export-data-card";
import { SessionsCard } from "./sessions-card";

/** Security: change the password, see and revoke sessions, read the audit log, download your data, delete the account. */
export function SecurityTab() {
  return (
    <div className="grid gap-6">
      <ChangePasswordForm />
      <SessionsCard />
      <AuditLogCard />
      <ExportDataCard />
      <DeleteAccountCard />
    </div>
  );
}
