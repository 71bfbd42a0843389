import { MoonIcon, SunIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type * as React from "react";
import { Button } from "@/components/ui/button";

const loadMenu = () => import("./theme-menu");
const ThemeMenu = lazy(loadMenu);

/** The sun/moon button that opens the theme menu. */
export function ThemeButton(props: React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="text-muted-foreground hover:text-foreground" {...props}>
      <SunIcon className="size-[1.15rem] dark:hidden" />
      <MoonIcon className="hidden size-[1.15rem] dark:block" />
      <span className="sr-only">Toggle theme</span>
    </Button>
  );
}

/**
 * Light, dark or system. The menu (Radix dropdown, floating-ui) is not part of the first
 * load: the button fetches it when pointed at or focused, and the first click opens it.
 */
export function ThemeToggle() {
  const [active, setActive] = useState(false);
  if (!active) {
    return (
      <ThemeButton
        aria-haspopup="menu"
        aria-expanded={false}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={() => setActive(true)}
      />
    );
  }
  return (
    <Suspense fallback={<ThemeButton aria-haspopup="menu" aria-expanded={false} disabled />}>
      <ThemeMenu defaultOpen />
    </Suspense>
  );
}
