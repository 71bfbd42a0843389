import { useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/lib/query-keys";

/**
 * Loads a content page's Markdown body (its own chunk) once and keeps it for the session:
 * the text is part of the build and never changes while the app runs.
 */
export function useContentBody(key: string, load: () => Promise<string>) {
  return useQuery({ queryKey: queryKeys.content(key), queryFn: load, staleTime: Infinity, gcTime: Infinity });
}
