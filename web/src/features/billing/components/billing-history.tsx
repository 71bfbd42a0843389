import { DownloadIcon, ReceiptTextIcon } from "lucide-react";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { InvoiceView } from "@/lib/api/models";
import { formatUsdCents } from "@/lib/format";
import { invoiceDownloadUrl, useInvoices } from "../api/get-invoices";
import { shortDateOf } from "../lib/subscription";

function Status({ invoice }: { invoice: InvoiceView }) {
  const paid = invoice.status === "paid";
  return (
    <span className="inline-grid gap-1">
      <Badge variant={paid ? "soft" : "destructive"} className="w-fit">
        {paid ? "Paid" : invoice.status === "failed" ? "Failed" : invoice.status}
      </Badge>
      {!paid && invoice.failureMessage ? <span className="text-xs text-muted-foreground">{invoice.failureMessage}</span> : null}
    </span>
  );
}

function Amount({ invoice }: { invoice: InvoiceView }) {
  return (
    <span className="inline-grid gap-0.5">
      <span className="font-medium tabular">{formatUsdCents(invoice.amountCents)}</span>
      {invoice.creditAppliedCents > 0 ? (
        <span className="text-xs text-muted-foreground">after {formatUsdCents(invoice.creditAppliedCents)} credit</span>
      ) : null}
    </span>
  );
}

function Download({ invoice }: { invoice: InvoiceView }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={invoiceDownloadUrl(invoice.id)} download aria-label={`Download invoice ${invoice.number}`}>
        <DownloadIcon aria-hidden />
        Download
      </a>
    </Button>
  );
}

function NoInvoices() {
  return (
    <div className="flex items-start gap-3 text-sm">
      <ReceiptTextIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="grid gap-1">
        <p className="font-medium">No invoices yet</p>
        <p className="text-muted-foreground">Invoices appear here once a payment is made. Nothing has been charged to this account.</p>
      </div>
    </div>
  );
}

/** The invoices as a table, from 768 px. */
function InvoiceTable({ invoices }: { invoices: InvoiceView[] }) {
  return (
    <table className="hidden w-full text-left text-sm md:table" data-testid="invoice-table">
      <caption className="sr-only">Invoices</caption>
      <thead className="text-xs text-muted-foreground">
        <tr className="border-b">
          <th scope="col" className="pb-2 font-medium">
            Date
          </th>
          <th scope="col" className="pb-2 font-medium">
            Invoice
          </th>
          <th scope="col" className="pb-2 font-medium">
            Description
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            Amount
          </th>
          <th scope="col" className="pb-2 pl-4 font-medium">
            Status
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            <span className="sr-only">Download</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y">
        {invoices.map((invoice) => (
          <tr key={invoice.id} data-testid="invoice-row" className="align-top">
            <td className="py-3 pr-3 whitespace-nowrap">{shortDateOf(invoice.createdAt)}</td>
            <td className="py-3 pr-3 font-mono text-xs whitespace-nowrap">{invoice.number}</td>
            <td className="py-3 pr-3">{invoice.description}</td>
            <td className="py-3 text-right">
              <Amount invoice={invoice} />
            </td>
            <td className="py-3 pl-4">
              <Status invoice={invoice} />
            </td>
            <td className="py-3 text-right">
              <Download invoice={invoice} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The invoices as a list, on phones. */
function InvoiceList({ invoices }: { invoices: InvoiceView[] }) {
  return (
    <ul className="grid divide-y md:hidden" aria-label="Invoices">
      {invoices.map((invoice) => (
        <li key={invoice.id} data-testid="invoice-item" className="grid gap-2 py-3 text-sm first:pt-0 last:pb-0">
          <div className="flex items-start justify-between gap-3">
            <div className="grid min-w-0 gap-0.5">
              <p className="font-medium">{invoice.description}</p>
              <p className="text-xs text-muted-foreground">
                {shortDateOf(invoice.createdAt)} · <span className="font-mono">{invoice.number}</span>
              </p>
            </div>
            <span className="text-right">
              <Amount invoice={invoice} />
            </span>
          </div>
          <div className="flex items-center justify-between gap-3">
            <Status invoice={invoice} />
            <Download invoice={invoice} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * Billing History (GET /api/billing/invoices): each invoice's date, number, description,
 * amount (US cents, exactly) and status, with a Download link to the printable invoice. A
 * table from 768 px; a list on phones.
 */
export function BillingHistory() {
  const invoices = useInvoices();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Billing History</CardTitle>
        <CardDescription>Your invoices, newest first. Amounts are in US dollars.</CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <QueryState
          query={invoices}
          loadingLabel="Loading your invoices"
          skeleton={<SkeletonRows count={2} className="h-10 w-full" />}
          errorTitle="Failed to fetch your billing history"
          isEmpty={(list) => list.length === 0}
          empty={<NoInvoices />}
        >
          {(list) => (
            <>
              <InvoiceTable invoices={list} />
              <InvoiceList invoices={list} />
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
