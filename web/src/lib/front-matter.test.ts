import { describe, expect, it } from "vitest";
import { countWords, headingsOf, markdownMeta, parseFrontMatter } from "./front-matter";

const FILE = `---
title: Straddles: a primer
tags: a, b
---

Intro text here.

## First {#one}

\`\`\`
## not a heading
\`\`\`

## Second
`;

describe("front matter", () => {
  it("splits key: value lines from the body (colons in values are kept)", () => {
    const { data, body } = parseFrontMatter(FILE);
    expect(data).toEqual({ title: "Straddles: a primer", tags: "a, b" });
    expect(body.startsWith("\nIntro text here.")).toBe(true);
  });

  it("treats a file without front matter as all body", () => {
    expect(parseFrontMatter("# Hi")).toEqual({ data: {}, body: "# Hi" });
  });

  it("rejects a line without a key", () => {
    expect(() => parseFrontMatter("---\njust words\n---\n")).toThrow(/without a key/);
  });

  it("lists ## headings outside code fences and counts words", () => {
    const { body } = parseFrontMatter(FILE);
    expect(headingsOf(body)).toEqual(["First {#one}", "Second"]);
    expect(countWords("One two — three ```")).toBe(3);
    expect(markdownMeta(FILE)).toMatchObject({ title: "Straddles: a primer", headings: "First {#one}\nSecond" });
  });
});
