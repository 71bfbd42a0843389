import { XIcon } from "lucide-react";
import { Dialog as SheetPrimitive } from "radix-ui";
import type * as React from "react";
import { cn } from "@/lib/utils";

/** A drawer that slides in from the left (the navigation) or up from the bottom, built on Radix Dialog. */
export const Sheet = SheetPrimitive.Root;
export const SheetTrigger = SheetPrimitive.Trigger;
export const SheetClose = SheetPrimitive.Close;
export const SheetTitle = SheetPrimitive.Title;
export const SheetDescription = SheetPrimitive.Description;

const SIDE_CLASS = {
  left: "drawer-anim inset-y-0 left-0 h-full w-[18rem] max-w-[85vw] border-r bg-sidebar",
  bottom:
    "sheet-bottom-anim inset-x-0 bottom-0 max-h-[calc(100dvh-3rem)] w-full rounded-t-2xl border-t bg-card pb-[env(safe-area-inset-bottom)]",
} as const;

export function SheetContent({
  className,
  children,
  closeLabel = "Close menu",
  side = "left",
  ...props
}: React.ComponentProps<typeof SheetPrimitive.Content> & { closeLabel?: string; side?: keyof typeof SIDE_CLASS }) {
  return (
    <SheetPrimitive.Portal>
      <SheetPrimitive.Overlay data-slot="sheet-overlay" className="overlay-anim fixed inset-0 z-50 bg-black/50 backdrop-blur-[1px]" />
      <SheetPrimitive.Content
        data-slot="sheet-content"
        data-side={side}
        className={cn("fixed z-50 flex flex-col shadow-xl outline-none", SIDE_CLASS[side], className)}
        {...props}
      >
        {children}
        <SheetPrimitive.Close className="absolute top-3.5 right-3 rounded-md p-1.5 text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          <XIcon className="size-5" />
          <span className="sr-only">{closeLabel}</span>
        </SheetPrimitive.Close>
      </SheetPrimitive.Content>
    </SheetPrimitive.Portal>
  );
}
