import { Lexer, type Token, type Tokens } from "marked";
import { Fragment, type ReactNode, useMemo } from "react";
import { Link } from "react-router";
import { headingId } from "@/lib/slug";
import { cn } from "@/lib/utils";

/**
 * Renders the site's Markdown as React elements. `marked` only tokenises; every token becomes
 * an element here, so no HTML string reaches the DOM: raw HTML in a file is shown as text,
 * and links other than site paths, anchors, http(s) and mailto are dropped. Nothing needs
 * sanitising and nothing conflicts with the CSP.
 *
 * Headings get ids (`## Title {#custom-id}` sets one explicitly) so pages can link to them.
 */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const tokens = useMemo(() => Lexer.lex(source), [source]);
  return <div className={cn("text-[1.02rem] leading-7 text-foreground/90", className)}>{blocks(tokens)}</div>;
}

function safeHref(href: string): string | null {
  if (href.startsWith("/") && !href.startsWith("//")) return href;
  if (href.startsWith("#")) return href;
  if (/^(https?:|mailto:)/i.test(href)) return href;
  return null;
}

const HEADING_CLASS: Record<number, string> = {
  1: "mt-10 mb-4 text-3xl font-semibold tracking-tight",
  2: "mt-12 mb-4 text-2xl font-semibold tracking-tight first:mt-0",
  3: "mt-8 mb-3 text-lg font-semibold tracking-tight",
  4: "mt-6 mb-2 font-semibold",
};

function blocks(tokens: Token[]): ReactNode[] {
  return tokens.map((token, index) => block(token as Tokens.Generic, index));
}

function block(token: Tokens.Generic, key: number): ReactNode {
  switch (token.type) {
    case "space":
      return null;
    case "heading": {
      const t = token as Tokens.Heading;
      const { text, id } = headingId(t.text);
      const Tag = `h${Math.min(Math.max(t.depth, 1), 6)}` as "h2";
      const children = text === t.text ? inlines(t.tokens) : text;
      return (
        <Tag key={key} id={id} className={cn("scroll-mt-24 text-foreground", HEADING_CLASS[t.depth] ?? HEADING_CLASS[4])}>
          {children}
        </Tag>
      );
    }
    case "paragraph":
      return (
        <p key={key} className="my-4">
          {inlines((token as Tokens.Paragraph).tokens)}
        </p>
      );
    case "text": {
      const t = token as Tokens.Text;
      return <Fragment key={key}>{t.tokens ? inlines(t.tokens) : t.text}</Fragment>;
    }
    case "list": {
      const t = token as Tokens.List;
      const items = t.items.map((item, i) => (
        <li key={i} className="pl-1.5 marker:text-muted-foreground">
          {item.loose ? blocks(item.tokens) : tightItem(item.tokens)}
        </li>
      ));
      return t.ordered ? (
        <ol
          key={key}
          start={typeof t.start === "number" && t.start !== 1 ? t.start : undefined}
          className="my-4 list-decimal space-y-2 pl-6"
        >
          {items}
        </ol>
      ) : (
        <ul key={key} className="my-4 list-disc space-y-2 pl-6">
          {items}
        </ul>
      );
    }
    case "blockquote":
      return (
        <blockquote key={key} className="my-6 rounded-r-lg border-l-4 border-primary/60 bg-muted/50 px-5 py-1 text-foreground/85">
          {blocks((token as Tokens.Blockquote).tokens)}
        </blockquote>
      );
    case "code": {
      const t = token as Tokens.Code;
      return (
        <pre
          key={key}
          tabIndex={0}
          className="my-5 overflow-x-auto rounded-lg border bg-muted/60 p-4 font-mono text-[0.85rem] leading-6 text-foreground"
        >
          <code>{t.text}</code>
        </pre>
      );
    }
    case "table": {
      const t = token as Tokens.Table;
      const align = (i: number) => (t.align[i] === "right" ? "text-right" : t.align[i] === "center" ? "text-center" : "text-left");
      return (
        <div key={key} className="my-6 overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Table">
          <table className="w-full text-sm">
            <thead className="bg-muted/60">
              <tr>
                {t.header.map((cell, i) => (
                  <th key={i} scope="col" className={cn("px-4 py-2.5 font-semibold", align(i))}>
                    {inlines(cell.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y">
              {t.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className={cn("px-4 py-2.5 align-top tabular", align(i))}>
                      {inlines(cell.tokens)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case "hr":
      return <hr key={key} className="my-10" />;
    case "html":
      return (
        <p key={key} className="my-4">
          {(token as Tokens.HTML).text}
        </p>
      );
    default:
      return "raw" in token ? <Fragment key={key}>{String(token.raw)}</Fragment> : null;
  }
}

/** A tight list item: its text runs inline, nested lists still render as blocks. */
function tightItem(tokens: Token[]): ReactNode[] {
  return tokens.map((token, i) => {
    const t = token as Tokens.Generic;
    if (t.type === "text") return <Fragment key={i}>{t.tokens ? inlines(t.tokens) : t.text}</Fragment>;
    return block(t, i);
  });
}

function inlines(tokens: Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((token, index) => inline(token as Tokens.Generic, index));
}

function inline(token: Tokens.Generic, key: number): ReactNode {
  switch (token.type) {
    case "text": {
      const t = token as Tokens.Text;
      return <Fragment key={key}>{t.tokens ? inlines(t.tokens) : t.text}</Fragment>;
    }
    case "escape":
      return <Fragment key={key}>{(token as Tokens.Escape).text}</Fragment>;
    case "strong":
      return (
        <strong key={key} className="font-semibold text-foreground">
          {inlines((token as Tokens.Strong).tokens)}
        </strong>
      );
    case "em":
      return <em key={key}>{inlines((token as Tokens.Em).tokens)}</em>;
    case "del":
      return <del key={key}>{inlines((token as Tokens.Del).tokens)}</del>;
    case "codespan":
      return (
        <code key={key} className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em] text-foreground">
          {(token as Tokens.Codespan).text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link": {
      const t = token as Tokens.Link;
      const href = safeHref(t.href);
      const children = inlines(t.tokens);
      const className = "font-medium text-primary underline underline-offset-4 hover:decoration-2";
      if (!href) return <Fragment key={key}>{children}</Fragment>;
      if (href.startsWith("/")) {
        return (
          <Link key={key} to={href} className={className}>
            {children}
          </Link>
        );
      }
      const external = /^https?:/i.test(href);
      return (
        <a key={key} href={href} className={className} {...(external ? { rel: "noopener noreferrer" } : {})}>
          {children}
        </a>
      );
    }
    case "image": {
      const t = token as Tokens.Image;
      return <Fragment key={key}>{t.text}</Fragment>;
    }
    case "html":
      return <Fragment key={key}>{(token as Tokens.Tag).text}</Fragment>;
    default:
      return "raw" in token ? <Fragment key={key}>{String(token.raw)}</Fragment> : null;
  }
}
