import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { TrackRecordSummary } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/public/track-record: the calibration of live signals, pooled, per strategy and risk-neutral. */
export function getTrackRecord(): Promise<TrackRecordSummary> {
  return dataOf(api.GET("/api/public/track-record"));
}

export function trackRecordQueryOptions() {
  // Outcomes resolve a few times a day; a minute-old copy is fresh enough when a visitor navigates back.
  return queryOptions({ queryKey: queryKeys.trackRecord.summary(), queryFn: getTrackRecord, staleTime: 60_000 });
}

export function useTrackRecord() {
  return useQuery(trackRecordQueryOptions());
}
