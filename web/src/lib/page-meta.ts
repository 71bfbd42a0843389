import { useEffect } from "react";

export const SITE_NAME = "Strikeline";

/** "Blog · Strikeline"; the bare site name for the home page. */
export function documentTitle(title?: string): string {
  return title ? `${title} · ${SITE_NAME}` : SITE_NAME;
}

/** Sets the document's title and meta description for the page being shown. */
export function setPageMeta(title: string | undefined, description: string): void {
  document.title = documentTitle(title);
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = "description";
    document.head.appendChild(meta);
  }
  meta.content = description;
}

/**
 * Gives the page its own title and description; every route calls it. `title` undefined
 * means the site name alone (the landing page sets its full title itself).
 */
export function usePageMeta(title: string | undefined, description: string): void {
  useEffect(() => setPageMeta(title, description), [title, description]);
}
