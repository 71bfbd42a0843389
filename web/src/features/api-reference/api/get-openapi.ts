import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { type ApiDocument, parseOpenApi } from "../lib/openapi";

export const openApiQueryKey = ["/api/openapi.json"] as const;

/** GET /api/openapi.json: the server's OpenAPI document, parsed for the explorer. */
export async function getOpenApi(): Promise<ApiDocument> {
  return parseOpenApi(await apiJson<unknown>("GET", "/api/openapi.json"));
}

export function openApiQueryOptions() {
  return queryOptions({ queryKey: openApiQueryKey, queryFn: getOpenApi });
}

export function useOpenApi() {
  return useQuery(openApiQueryOptions());
}
