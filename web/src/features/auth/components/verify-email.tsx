import { CheckCircle2Icon, CircleAlertIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { ResendLinkButton } from "@/components/resend-link-button";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { ApiError, errorMessage } from "@/lib/api/client";
import { useUser } from "../api/get-me";
import { useVerifyEmail } from "../api/verify-email";
import { AuthLayout } from "./auth-layout";

/** What a link with no token says (the server would answer the same about an empty one). */
export const INCOMPLETE_LINK = "This link is incomplete. Open the link in the email again, or ask for a new one.";

/** The text of a failed confirmation: the server's message about `token`, else its detail. */
export function linkProblem(error: unknown): string {
  const token = error instanceof ApiError ? error.fieldErrors.find((e) => e.field === "token") : undefined;
  return token?.message ?? errorMessage(error, "Your address could not be confirmed. Please try again.");
}

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/**
 * /verify-email?token=…: confirms the address once on load (a ref keeps StrictMode's second
 * effect from spending the single-use token twice), then says what happened. Works signed in
 * or out; signed in, the cached user is refreshed by the mutation.
 */
export function VerifyEmailScreen() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const { user } = useUser();
  const mutation = useVerifyEmail();
  const sent = useRef<string | null>(null);
  const { mutate } = mutation;

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate(token);
  }, [token, mutate]);

  if (token && (mutation.isIdle || mutation.isPending)) {
    return (
      <AuthLayout title="Confirming your email address" description="This takes a moment." footer={null}>
        <div className="flex items-center gap-3 rounded-lg border bg-card p-4 text-sm shadow-xs" aria-busy="true">
          <Spinner className="size-5" label="Confirming your email address" />
          <span aria-hidden>Checking your link…</span>
        </div>
      </AuthLayout>
    );
  }

  if (mutation.isSuccess) {
    const { user: confirmed, trialStarted } = mutation.data;
    const signedInHere = user?.id === confirmed.id;
    return (
      <AuthLayout title="Email address confirmed" description={`${confirmed.email} is confirmed.`} footer={null}>
        <div role="status" className="grid gap-3 rounded-lg border bg-card p-4 text-sm shadow-xs">
          <p className="flex items-start gap-2.5 font-medium">
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
            Your email address is confirmed.
          </p>
          {trialStarted ? (
            <p className="text-muted-foreground">
              Your 14-day Pro trial has started: more signals, full backtests, AI recommendations, API keys and webhooks.
            </p>
          ) : (
            <p className="text-muted-foreground">API keys and webhooks are open to your account.</p>
          )}
        </div>
        <Button asChild size="lg" className="mt-6 w-full">
          {signedInHere ? <Link to="/dashboard">Go to your dashboard</Link> : <Link to="/login">Sign in</Link>}
        </Button>
      </AuthLayout>
    );
  }

  const problem = token ? linkProblem(mutation.error) : INCOMPLETE_LINK;
  return (
    <AuthLayout
      title="This link did not work"
      description={user?.emailVerified ? "Your email address is already confirmed." : "Your email address is not confirmed yet."}
      footer={
        user ? (
          <Link to="/dashboard" className={linkClass}>
            Back to your dashboard
          </Link>
        ) : (
          <>
            Need a new link?{" "}
            <Link to="/login" className={linkClass}>
              Sign in
            </Link>{" "}
            and send one from the banner at the top.
          </>
        )
      }
    >
      <div role="alert" className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm">
        <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
        <p>{problem}</p>
      </div>
      {user && !user.emailVerified ? (
        <div className="mt-6 grid gap-2">
          <p className="text-sm text-muted-foreground">We can send a new link to {user.email}.</p>
          <ResendLinkButton email={user.email} size="lg" variant="default" className="w-full" />
        </div>
      ) : null}
    </AuthLayout>
  );
}
