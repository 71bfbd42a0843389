/// <reference types="vite/client" />

/** Front matter of a Markdown file under src/content (see vite.config.ts). */
declare module "*.md?meta" {
  const meta: import("@/lib/front-matter").MarkdownMeta;
  export default meta;
}
