import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { AuditEntry } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { useAuditLog } from "../api/get-audit-log";
import { auditActionLabel, WARNING_ACTIONS } from "../lib/audit";
import { describeUserAgent } from "../lib/user-agent";

function AuditRow({ entry }: { entry: AuditEntry }) {
  const warn = WARNING_ACTIONS.has(entry.action);
  return (
    <li className="grid gap-1 py-3 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-4" data-testid="audit-entry">
      <div className="min-w-0">
        <p className={cn("flex flex-wrap items-center gap-2 text-sm font-medium", warn && "text-destructive-strong")}>
          {auditActionLabel(entry.action)}
          {entry.byAdministrator ? <Badge variant="outline">By an administrator</Badge> : null}
        </p>
        {entry.detail ? <p className="text-sm break-words text-muted-foreground">{entry.detail}</p> : null}
        <p className="text-xs text-muted-foreground">
          {entry.ip ?? "Unknown IP"}
          <span aria-hidden> · </span>
          <span className="sr-only">, </span>
          {describeUserAgent(entry.userAgent)}
        </p>
      </div>
      <time dateTime={entry.at} className="text-xs text-muted-foreground tabular sm:text-right">
        {formatDateTime(entry.at)}
      </time>
    </li>
  );
}

/** The account's audit log, newest first, 50 at a time with "Load more". */
export function AuditLogCard() {
  const log = useAuditLog();
  const entries = log.data?.pages.flat() ?? [];
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Account Activity</CardTitle>
        <CardDescription>Sign-ins, password and key changes on your account, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <QueryState
          query={log}
          loadingLabel="Loading your account activity"
          skeleton={<SkeletonRows count={3} className="h-10 w-full" />}
          errorTitle="Failed to fetch account activity"
          staleData="show"
          isEmpty={(data) => data.pages.flat().length === 0}
          empty={<p className="text-sm text-muted-foreground">No activity recorded yet.</p>}
        >
          {() => (
            <>
              <ul className="divide-y" aria-label="Account activity">
                {entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </ul>
              {log.hasNextPage ? (
                <div className="mt-5 flex justify-center">
                  <Button variant="outline" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                    {log.isFetchingNextPage ? "Loading..." : "Load more"}
                  </Button>
                </div>
              ) : null}
              {log.isFetchNextPageError ? (
                <p role="alert" className="mt-3 text-center text-sm text-destructive-strong">
                  Failed to load older activity. Try again.
                </p>
              ) : null}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
