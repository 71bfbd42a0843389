import type * as React from "react";
import { cn } from "@/lib/utils";

/** A public information page: a title band and a centred column of content. */
export function InfoPage({
  eyebrow,
  title,
  description,
  children,
  width = "narrow",
}: {
  eyebrow?: string;
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  width?: "narrow" | "wide";
}) {
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className={cn("mx-auto px-4 py-14 sm:px-6 sm:py-16 lg:px-8", width === "wide" ? "max-w-7xl" : "max-w-3xl")}>
          {eyebrow ? <p className="text-sm font-semibold text-primary">{eyebrow}</p> : null}
          <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
          {description ? <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{description}</p> : null}
        </div>
      </section>
      <div className={cn("mx-auto px-4 py-12 sm:px-6 lg:px-8", width === "wide" ? "max-w-7xl" : "max-w-3xl")}>{children}</div>
    </>
  );
}

/** A titled block of prose inside an InfoPage. */
export function InfoSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="border-b py-7 first:pt-0 last:border-b-0">
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      <div className="mt-3 space-y-3 text-[0.95rem] leading-relaxed text-muted-foreground">{children}</div>
    </section>
  );
}
