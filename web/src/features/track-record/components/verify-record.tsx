import { DownloadIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { CopyButton } from "@/components/copy-button";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { PublishedHead } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { useTreeHeadKey } from "../api/get-tree-head-key";
import { useTreeHeads } from "../api/get-tree-heads";
import { everyInterval, verifyCommand } from "../lib/calibration";

/** Where the whole record is downloaded from (not fetched by the page: it holds every entry). */
export const EXPORT_URL = "/api/public/track-record/export";
export const PROOF_URL = "/api/public/track-record/signals/{id}/proof";

const count = new Intl.NumberFormat("en-US");

/** Hex or a command in a monospace block that wraps anywhere, so a 64-character key fits a phone. */
function Mono({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <code data-testid={testId} className="block rounded-lg border bg-muted/60 px-3 py-2.5 font-mono text-xs leading-relaxed break-all">
      {children}
    </code>
  );
}

function Step({ title, description, children }: { title: string; description: React.ReactNode; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h3 className="text-base leading-tight font-semibold">{title}</h3>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">{children}</CardContent>
    </Card>
  );
}

function LatestHead({ head }: { head: PublishedHead }) {
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="latest-head">
      <div>
        <dt className="text-xs text-muted-foreground">Tree size</dt>
        <dd className="mt-0.5 font-semibold tabular">
          {count.format(head.treeSize)} {head.treeSize === 1 ? "entry" : "entries"}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Signed</dt>
        <dd className="mt-0.5 font-semibold">
          <time dateTime={head.timestamp}>{formatDateTime(head.timestamp)}</time>
        </dd>
      </div>
      <div className="col-span-2">
        <dt className="text-xs text-muted-foreground">Root hash (SHA-256, hex)</dt>
        <dd className="mt-1">
          <Mono>{head.rootHash}</Mono>
        </dd>
      </div>
      <div className="col-span-2">
        <dt className="text-xs text-muted-foreground">Signature (Ed25519, hex)</dt>
        <dd className="mt-1">
          <Mono>{head.signature}</Mono>
        </dd>
      </div>
    </dl>
  );
}

/**
 * "Check it yourself": the append-only log behind the figures, the key its heads are signed
 * with, the newest signed head, the download and the command that checks it offline, and where
 * a single signal's inclusion proofs are.
 */
export function VerifyRecord() {
  const key = useTreeHeadKey();
  const heads = useTreeHeads(1);
  const every = key.data ? everyInterval(key.data.headIntervalSeconds) : "every hour";
  const Every = every.charAt(0).toUpperCase() + every.slice(1);
  const command = verifyCommand(key.data?.publicKey ?? null);

  return (
    <section aria-labelledby="verify-heading" className="grid grid-cols-1 gap-6">
      <div className="max-w-3xl">
        <h2 id="verify-heading" className="text-2xl font-semibold tracking-tight">
          Check it yourself
        </h2>
        <div className="mt-3 space-y-3 leading-relaxed text-muted-foreground">
          <p>
            Every live signal is written, when it is issued, to an append-only log: a Merkle tree hashed exactly as RFC 9162 (Certificate
            Transparency) specifies. Its outcome is added later as a new entry; an entry is never rewritten. {Every} the server signs the
            tree&apos;s head (its size, the time and the root hash) with its own Ed25519 key, so a past call edited, removed or slipped in
            afterwards no longer matches a head that was already signed.
          </p>
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Step
          title="1. Download the record"
          description="Every entry of the log, every signed head, the public key and the signals as stored now, as one JSON file."
        >
          <div>
            <Button asChild>
              <a href={EXPORT_URL} download="track-record.json">
                <DownloadIcon aria-hidden />
                Download the record
              </a>
            </Button>
          </div>
        </Step>

        <Step
          title="2. Verify it offline"
          description="Checks every head's signature against the key, that heads never go back, that the entries reproduce every signed root and that every stored signal matches its entries; the first head an edited, missing or inserted entry breaks is named."
        >
          <Mono testId="verify-command">{command}</Mono>
          <div>
            <CopyButton text={command} label="verify command" />
          </div>
          <p className="text-xs leading-relaxed text-muted-foreground">
            Add <code className="font-mono">--heads FILE</code> with heads you saved earlier (from{" "}
            <code className="font-mono break-all">GET /api/public/track-record/heads</code>) and a log rewritten and signed again from
            scratch fails against what you already saw.
          </p>
        </Step>

        <Step title="Public key" description="The key tree heads are signed with, generated when this server first started.">
          <QueryState
            query={key}
            loadingLabel="Loading the public key"
            skeleton={<Skeleton className="h-16 w-full" />}
            errorTitle="Failed to fetch the public key"
          >
            {(k) => (
              <>
                <p className="text-xs text-muted-foreground">{k.algorithm}, hex</p>
                <Mono testId="public-key">{k.publicKey}</Mono>
                <div>
                  <CopyButton text={k.publicKey} label="public key" />
                </div>
                <p className="text-xs leading-relaxed text-muted-foreground">
                  Each signature covers <span className="font-mono break-all">{k.signedMessage}</span>.
                </p>
              </>
            )}
          </QueryState>
        </Step>

        <Step title="Latest signed tree head" description={`Signed ${every}; each one pins the whole log up to its size.`}>
          <QueryState
            query={heads}
            loadingLabel="Loading the latest signed tree head"
            skeleton={<Skeleton className="h-32 w-full" />}
            errorTitle="Failed to fetch the latest signed tree head"
            isEmpty={(list) => !list.latest}
            empty={
              <p className="text-sm text-muted-foreground">
                No tree head has been signed yet. The first is signed {every} once the log has entries.
              </p>
            }
          >
            {(list) => (list.latest ? <LatestHead head={list.latest} /> : null)}
          </QueryState>
        </Step>
      </div>

      <p className="max-w-3xl text-sm leading-relaxed text-muted-foreground">
        One signal at a time: <code className="font-mono text-xs break-all text-foreground">GET {PROOF_URL}</code> answers with the
        inclusion proofs of that signal&apos;s entries (its issue and, once it has ended, its outcome) in the newest signed head. Every
        track-record endpoint is listed in the{" "}
        <Link to="/api" className="font-medium text-primary underline-offset-4 hover:underline">
          API reference
        </Link>
        .
      </p>
    </section>
  );
}
