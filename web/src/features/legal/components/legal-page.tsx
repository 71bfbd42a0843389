import { MailIcon, MapPinIcon } from "lucide-react";
import { MarkdownBody } from "@/components/markdown-body";
import { SupportPhoneLine } from "@/components/support-phone";
import { TableOfContents } from "@/components/table-of-contents";
import { COMPANY } from "@/content/company";
import type { LegalDocument } from "@/content/legal";
import { usePageMeta } from "@/lib/page-meta";

/** The company's contact details, from the one content file that holds them. */
export function CompanyContact({ email }: { email: string }) {
  return (
    <address className="mt-4 grid gap-3 rounded-xl border bg-card p-5 text-sm not-italic sm:grid-cols-2" data-testid="company-contact">
      <p className="flex gap-2.5">
        <MapPinIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <span>
          {COMPANY.address.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </span>
      </p>
      <div className="grid content-start gap-3">
        <p className="flex gap-2.5">
          <MailIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <a href={`mailto:${email}`} className="font-medium text-primary underline-offset-4 hover:underline">
            {email}
          </a>
        </p>
        <SupportPhoneLine variant="line" />
      </div>
    </address>
  );
}

/**
 * A legal document (privacy, terms, community guidelines): numbered sections from its
 * Markdown file, ending with the company's contact details from src/content/company.ts.
 */
export function LegalPage({ doc, eyebrow, email }: { doc: LegalDocument; eyebrow: string; email: string }) {
  usePageMeta(doc.title, doc.description);
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
          <p className="text-sm font-semibold text-primary">{eyebrow}</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">{doc.title}</h1>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{doc.description}</p>
          <p className="mt-4 text-sm text-muted-foreground">Last updated {doc.updated}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_17rem] lg:px-8">
        <article className="min-w-0 max-w-3xl">
          <MarkdownBody id={`legal/${doc.slug}`} load={doc.loadBody} />
          <CompanyContact email={email} />
        </article>
        <aside className="order-first lg:sticky lg:top-24 lg:order-none lg:self-start">
          <TableOfContents headings={doc.headings} title="Sections" />
        </aside>
      </div>
    </>
  );
}
