import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { InvoiceView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/billing/invoices: the billing history, newest first (amounts in US cents). */
export function getInvoices(): Promise<InvoiceView[]> {
  return dataOf(api.GET("/api/billing/invoices"));
}

export function invoicesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.invoices(), queryFn: getInvoices });
}

export function useInvoices() {
  return useQuery(invoicesQueryOptions());
}

/** GET /api/billing/invoices/{id}: the invoice as a printable HTML file (an attachment). */
export function invoiceDownloadUrl(id: string): string {
  return `/api/billing/invoices/${encodeURIComponent(id)}`;
}
