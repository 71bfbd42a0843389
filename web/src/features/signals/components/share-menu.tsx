import { CopyIcon, ImageIcon, Share2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { copyText } from "@/lib/clipboard";
import { toast } from "@/lib/toast";
import { type SharePosition, shareImage, shareText, tweetIntentUrl } from "../lib/share";

/** The X logo (lucide has none). */
function XLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden className="size-4 fill-current">
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}

export async function shareImageWithToasts(position: SharePosition): Promise<void> {
  try {
    const outcome = await shareImage(position);
    if (outcome === "shared") toast({ title: "Shared Successfully" });
    if (outcome === "downloaded") toast({ title: "Image Downloaded" });
  } catch {
    toast({ variant: "destructive", title: "Error", description: "Failed to generate share image" });
  }
}

export async function copyShareText(position: SharePosition): Promise<void> {
  if (await copyText(shareText(position))) {
    toast({ title: "Copied", description: "Share text copied to clipboard" });
  } else {
    toast({ variant: "destructive", title: "Copy failed", description: "Select the text and copy it by hand." });
  }
}

/** Share on X (post intent, new tab), as a 1080 × 1080 image, or as text. */
export function ShareMenu({ position }: { position: SharePosition }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <Share2Icon aria-hidden />
          Share
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-48">
        <DropdownMenuItem asChild>
          <a href={tweetIntentUrl(shareText(position))} target="_blank" rel="noopener noreferrer">
            <XLogo />
            Share on X
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void shareImageWithToasts(position)}>
          <ImageIcon aria-hidden />
          Share image
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void copyShareText(position)}>
          <CopyIcon aria-hidden />
          Copy text
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
