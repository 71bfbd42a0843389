import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { formatBadgeCount } from "@/lib/format";
import { cn } from "@/lib/utils";

/** One navigation entry of the app's sidebar. */
export type SidebarItem = {
  label: string;
  href: string;
  active: boolean;
  badge?: number;
  icon?: LucideIcon;
};

export type SidebarSection = { title?: string; items: SidebarItem[] };

export function SidebarNav({ sections, onNavigate }: { sections: SidebarSection[]; onNavigate?: () => void }) {
  return (
    <nav aria-label="App" className="flex flex-col gap-6">
      {sections.map((section, i) => (
        <div key={section.title ?? i}>
          {section.title ? (
            <p className="mb-2 px-3 text-[0.7rem] font-semibold tracking-wider text-muted-foreground uppercase">{section.title}</p>
          ) : null}
          <ul className="flex flex-col gap-0.5">
            {section.items.map((item) => {
              const Icon = item.icon;
              return (
                <li key={item.href}>
                  <Link
                    to={item.href}
                    onClick={onNavigate}
                    aria-current={item.active ? "page" : undefined}
                    className={cn(
                      "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground transition-colors outline-none",
                      "hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                      item.active && "bg-sidebar-accent text-sidebar-accent-foreground",
                    )}
                  >
                    {Icon ? (
                      <Icon
                        aria-hidden
                        className={cn(
                          "size-[1.05rem] shrink-0 text-muted-foreground group-hover:text-sidebar-accent-foreground",
                          item.active && "text-primary group-hover:text-primary",
                        )}
                      />
                    ) : null}
                    <span className="flex-1 truncate">{item.label}</span>
                    {item.badge !== undefined ? (
                      <span
                        className={cn(
                          "min-w-5 rounded-full px-1.5 py-0.5 text-center text-[0.7rem] leading-none font-semibold tabular",
                          item.badge > 0 ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
                        )}
                      >
                        <span className="sr-only">Active signals: </span>
                        {formatBadgeCount(item.badge)}
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
