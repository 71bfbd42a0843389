import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { DataExport } from "@/lib/api/models";

/**
 * GET /api/user/export: everything stored about the signed-in user (every table that holds
 * their rows, secrets left out), five an hour (429 with Retry-After beyond).
 */
export function exportData(): Promise<DataExport> {
  return dataOf(api.GET("/api/user/export"));
}

/** Fetches the export and hands it to the browser as `strikeline-data-YYYY-MM-DD.json`. */
export function useExportData() {
  return useMutation({
    mutationFn: async () => {
      const data = await exportData();
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = `strikeline-data-${data.exportedAt.slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
      return data;
    },
  });
}
