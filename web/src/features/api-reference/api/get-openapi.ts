import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api/client";
import { queryKeys } from "@/lib/query-keys";
import { type ApiDocument, parseOpenApi } from "../lib/openapi";

/** GET /api/openapi.json: the server's OpenAPI document, parsed for the explorer. */
export async function getOpenApi(): Promise<ApiDocument> {
  return parseOpenApi(await apiJson<unknown>("GET", "/api/openapi.json"));
}

export function openApiQueryOptions() {
  return queryOptions({ queryKey: queryKeys.openApi(), queryFn: getOpenApi });
}

export function useOpenApi() {
  return useQuery(openApiQueryOptions());
}
