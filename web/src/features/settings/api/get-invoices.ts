import { queryOptions, useQuery } from "@tanstack/react-query";
import { INVOICES_QUERY_KEY } from "@/lib/api/billing";
import { api, dataOf } from "@/lib/api/client";
import type { InvoiceView } from "@/lib/api/models";

export const invoicesQueryKey = INVOICES_QUERY_KEY;

/** GET /api/billing/invoices: the billing history, newest first (amounts in US cents). */
export function getInvoices(): Promise<InvoiceView[]> {
  return dataOf(api.GET("/api/billing/invoices"));
}

export function invoicesQueryOptions() {
  return queryOptions({ queryKey: invoicesQueryKey, queryFn: getInvoices });
}

export function useInvoices() {
  return useQuery(invoicesQueryOptions());
}

/** GET /api/billing/invoices/{id}: the invoice as a printable HTML file (an attachment). */
export function invoiceDownloadUrl(id: string): string {
  return `/api/billing/invoices/${encodeURIComponent(id)}`;
}
