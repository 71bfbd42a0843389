import { MailWarningIcon } from "lucide-react";
import { ResendLinkButton } from "@/components/resend-link-button";
import type { User } from "@/lib/api/models";

/**
 * Above every signed-in page while the address is unconfirmed: until the emailed link is
 * opened the account is on Free, with no trial, API keys or webhooks. Gone once `emailVerified`.
 */
export function ConfirmEmailBanner({ user }: { user: Pick<User, "email" | "emailVerified"> }) {
  if (user.emailVerified) return null;
  return (
    <section
      aria-label="Confirm your email address"
      data-testid="confirm-email-banner"
      className="border-b border-amber-500/30 bg-amber-500/10 px-4 py-3 sm:px-6 md:px-8"
    >
      <div className="mx-auto flex w-full max-w-7xl flex-wrap items-center gap-x-4 gap-y-2.5">
        <p className="flex min-w-0 flex-1 basis-64 items-start gap-2.5 text-sm">
          <MailWarningIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden />
          <span className="min-w-0">
            Confirm your email address to start your 14-day Pro trial. We sent a link to{" "}
            <strong className="font-semibold break-all">{user.email}</strong>.
          </span>
        </p>
        <ResendLinkButton email={user.email} className="ml-auto sm:ml-0" />
      </div>
    </section>
  );
}
