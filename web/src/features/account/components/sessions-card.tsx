import { LaptopIcon } from "lucide-react";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api/client";
import type { SessionView } from "@/lib/api/models";
import { formatDateTime, timeAgo } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { useSessions } from "../api/get-sessions";
import { useRevokeSession } from "../api/revoke-session";
import { describeUserAgent } from "../lib/user-agent";

function SessionRow({ session, now }: { session: SessionView; now: number }) {
  const revoke = useRevokeSession();
  const device = describeUserAgent(session.userAgent);
  const onRevoke = async () => {
    try {
      await revoke.mutateAsync(session.id);
    } catch (error) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to revoke session") });
      return;
    }
    toast({ title: "Session Revoked", description: `${device} has been signed out.` });
  };
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3.5 first:pt-0 last:pb-0" data-testid="session-row">
      <div className="flex min-w-0 items-start gap-3">
        <LaptopIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        <div className="grid min-w-0 gap-0.5">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
            {device}
            {session.current ? <Badge variant="soft">This device</Badge> : null}
          </p>
          <p className="text-xs text-muted-foreground">
            {session.ip ?? "Unknown IP"}
            <span aria-hidden> · </span>
            <span className="sr-only">, </span>
            <span title={formatDateTime(session.lastSeenAt)}>
              {session.current ? "Active now" : `Last active ${timeAgo(session.lastSeenAt, now).toLowerCase()}`}
            </span>
            <span aria-hidden> · </span>
            <span className="sr-only">, </span>
            Signed in {formatDateTime(session.createdAt)}
          </p>
        </div>
      </div>
      {session.current ? null : (
        <Button variant="outline" size="sm" onClick={() => void onRevoke()} disabled={revoke.isPending}>
          {revoke.isPending ? "Revoking..." : "Revoke"}
          <span className="sr-only">
            {" "}
            {device}, {session.ip ?? "unknown IP"}
          </span>
        </Button>
      )}
    </li>
  );
}

/** The account's signed-in sessions, this one marked; any other can be revoked (signed out). */
export function SessionsCard({ now = Date.now() }: { now?: number }) {
  const sessions = useSessions();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Signed-in Sessions</CardTitle>
        <CardDescription>Browsers and devices signed in to your account. Revoke any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <QueryState
          query={sessions}
          loadingLabel="Loading your sessions"
          skeleton={<SkeletonRows count={2} className="h-10 w-full" />}
          errorTitle="Failed to fetch sessions"
        >
          {(list) => (
            <ul className="divide-y" aria-label="Sessions">
              {list.map((session) => (
                <SessionRow key={session.id} session={session} now={now} />
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
