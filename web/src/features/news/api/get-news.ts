import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { NewsItem } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import type { NewsCount } from "../lib/news";

/** The news is stale after 2 minutes and refetched every 5. */
export const NEWS_STALE_MS = 2 * 60_000;
export const NEWS_REFETCH_MS = 5 * 60_000;

/** GET /api/news?count=…: the newest articles, with sentiment and (Pro and up) the AI analysis. */
export function getNews(count: NewsCount): Promise<NewsItem[]> {
  return dataOf(api.GET("/api/news", { params: { query: { count } } }));
}

export function newsQueryOptions(count: NewsCount) {
  return queryOptions({
    queryKey: queryKeys.news.list(count),
    queryFn: () => getNews(count),
    staleTime: NEWS_STALE_MS,
    refetchInterval: NEWS_REFETCH_MS,
    retry: false,
    // While another count loads, the list on screen stays (dimmed) instead of skeletons.
    placeholderData: keepPreviousData,
  });
}

export function useNews(count: NewsCount) {
  return useQuery(newsQueryOptions(count));
}
