/// <reference types="vitest/config" />
import { readdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath, URL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { markdownMeta } from "./src/lib/front-matter.ts";

// During `npm run dev` the API is proxied to a locally running `strikeline serve`.
const apiTarget = process.env.STRIKELINE_API ?? "http://127.0.0.1:8080";

/**
 * `import meta from "./post.md?meta"` gives the file's front matter (plus word count and
 * headings) without its body, so listing pages stay small and each article's text is its own
 * chunk, loaded with `?raw` when the article is opened.
 */
function markdownMetaPlugin(): Plugin {
  return {
    name: "strikeline:markdown-meta",
    enforce: "pre",
    async load(id) {
      const [file, query] = id.split("?");
      if (!file.endsWith(".md") || query !== "meta") return null;
      this.addWatchFile(file);
      const meta = markdownMeta(await readFile(file, "utf8"));
      return `export default ${JSON.stringify(meta)};`;
    },
  };
}

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|md)$/;
/** The server compresses nothing smaller on the fly either (`COMPRESS_ABOVE`). */
const COMPRESS_ABOVE = 1024;

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside every text file of
 * the build, which the server sends as they are to a browser that accepts them: the best
 * compression once at build time instead of the fastest on every request (docs/performance.md).
 */
function precompressPlugin(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = "dist";
  return {
    name: "strikeline:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name)).map((e) => path.join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(file);
          if (body.length <= COMPRESS_ABOVE) return;
          const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length };
          await writeFile(`${file}.br`, await brotli(body, { params }));
          await writeFile(`${file}.gz`, await gz(body, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [markdownMetaPlugin(), react(), tailwindcss(), precompressPlugin()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: { "/api": { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    restoreMocks: true,
    // One jsdom per worker, reused from file to file: setting up a fresh environment and
    // re-importing React for each of 85 files was three quarters of the run (163 s → 42 s on
    // 2 cores; docs/performance.md). Every file renders into its own container, the setup
    // file cleans up after each test, and mocks are restored, so nothing carries over; the
    // files also pass in shuffled order (`npx vitest run --sequence.shuffle.files`).
    isolate: false,
    // vitest's default leaves one core idle, which on a 2-core machine means one worker.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
