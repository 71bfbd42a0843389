import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type PngUploadPath, putPng } from "@/lib/api/client";
import type { ReportBrandInput, ReportBrandView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** Where the logo is uploaded to and read from. */
const LOGO_PATH = "/api/reports/brand/logo" satisfies PngUploadPath;

/** GET /api/reports/brand: the brand the account's reports carry, and whether the plan lets it be its own (Premium). */
export function getReportBrand(): Promise<ReportBrandView> {
  return dataOf(api.GET("/api/reports/brand"));
}

export function useReportBrand() {
  return useQuery({ queryKey: queryKeys.reportBrand(), queryFn: getReportBrand });
}

/** PUT /api/reports/brand → the brand as saved (it becomes the cache); 403 below Premium, 422 naming each field at fault. */
export function useSaveReportBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportBrandInput) => dataOf(api.PUT("/api/reports/brand", { body })),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.reportBrand(), saved),
  });
}

/** DELETE /api/reports/brand → 204: the brand and its logo are forgotten, reports carry the house brand. */
export function useResetReportBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await dataOf(api.DELETE("/api/reports/brand"));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reportBrand() }),
  });
}

/** Sets `hasLogo` in the cached brand, which the logo's answers (204) do not return. */
function useSetHasLogo() {
  const queryClient = useQueryClient();
  return (hasLogo: boolean) =>
    queryClient.setQueryData<ReportBrandView>(queryKeys.reportBrand(), (brand) => (brand ? { ...brand, hasLogo } : brand));
}

/**
 * PUT /api/reports/brand/logo with the PNG itself → 204. 409 before a brand is saved, 415 for
 * another type, 422 naming `logo` (too large, too many pixels, not a PNG that reads).
 */
export function useUploadReportLogo() {
  const setHasLogo = useSetHasLogo();
  return useMutation({
    mutationFn: (png: Blob) => putPng(LOGO_PATH, png),
    onSuccess: () => setHasLogo(true),
  });
}

/** DELETE /api/reports/brand/logo → 204. */
export function useRemoveReportLogo() {
  const setHasLogo = useSetHasLogo();
  return useMutation({
    mutationFn: async () => {
      await dataOf(api.DELETE("/api/reports/brand/logo"));
    },
    onSuccess: () => setHasLogo(false),
  });
}

/** The saved logo's address; `version` changes after each upload, so the browser reads it again. */
export function reportLogoUrl(version: number): string {
  return `${LOGO_PATH}?v=${version}`;
}
