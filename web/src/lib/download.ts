import { useState } from "react";
import { errorMessage } from "./api/client";
import { downloadFile } from "./csv";
import { toast } from "./toast";

/**
 * What a typed call read as a file answers: `api.GET("/api/portfolio/report", { parseAs: "blob" })`.
 * The typed client sends the session cookie and throws an ApiError for any non-OK answer.
 */
export type FileAnswer = { data?: Blob; response: Response };

/** Used when a failure carries no problem detail. */
export const DOWNLOAD_FAILED = "The file could not be downloaded. Please try again.";

/**
 * The file name a `Content-Disposition` header gives (`filename*=UTF-8''…` before `filename=…`),
 * reduced to its last path segment; null when it names none.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
    if (plain) name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2].trim();
  }
  const last = name?.split(/[/\\]/).pop()?.trim();
  return last ? last : null;
}

/**
 * Runs `request` (a typed call read as a blob) and saves its answer under the name the server
 * gives in `Content-Disposition`, else `fallbackName`. A failure is toasted with the server's
 * problem detail (a 429's "try again in …"), never raw JSON. Resolves to whether a file was saved.
 */
export async function downloadFromApi(request: () => Promise<FileAnswer>, fallbackName: string): Promise<boolean> {
  try {
    const { data, response } = await request();
    if (!data) throw new Error("empty answer");
    const name = fileNameOf(response.headers.get("Content-Disposition")) ?? fallbackName;
    downloadFile(name, data, data.type || "application/octet-stream");
    return true;
  } catch (error) {
    toast({ variant: "destructive", title: "Download failed", description: errorMessage(error, DOWNLOAD_FAILED) });
    return false;
  }
}

/** `downloadFromApi` with whether a download is under way, for a button's busy state. */
export function useDownloadFromApi() {
  const [pending, setPending] = useState(false);
  const download = async (request: () => Promise<FileAnswer>, fallbackName: string) => {
    setPending(true);
    try {
      return await downloadFromApi(request, fallbackName);
    } finally {
      setPending(false);
    }
  };
  return { download, pending };
}
