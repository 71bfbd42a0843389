import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

function renderMarkdown(source: string) {
  return render(
    <MemoryRouter>
      <Markdown source={source} />
    </MemoryRouter>,
  );
}

describe("Markdown", () => {
  it("renders headings with ids, lists, tables and code", () => {
    renderMarkdown(
      "## Validation failed {#validation}\n\n## Implied vs. historical\n\n- **one**\n- `two`\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```\nd1 = x\n```\n",
    );
    expect(screen.getByRole("heading", { level: 2, name: "Validation failed" })).toHaveAttribute("id", "validation");
    expect(screen.getByRole("heading", { level: 2, name: "Implied vs. historical" })).toHaveAttribute("id", "implied-vs-historical");
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    expect(screen.getByRole("table")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "b" })).toHaveClass("text-right");
    expect(screen.getByText("d1 = x")).toBeInTheDocument();
  });

  it("links site paths through the router and keeps external links safe", () => {
    renderMarkdown("[Greeks](/blog/options-greeks-guide) [RFC](https://www.rfc-editor.org/rfc/rfc9457) [bad](javascript:alert(1))");
    expect(screen.getByRole("link", { name: "Greeks" })).toHaveAttribute("href", "/blog/options-greeks-guide");
    expect(screen.getByRole("link", { name: "RFC" })).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.queryByRole("link", { name: "bad" })).toBeNull();
    expect(screen.getByText("bad")).toBeInTheDocument();
  });

  it("shows raw HTML as text instead of injecting it", () => {
    const { container } = renderMarkdown('Hello <img src=x onerror="alert(1)"> world\n\n<script>alert(1)</script>\n');
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect(container.textContent).toContain("<script>alert(1)</script>");
  });
});
