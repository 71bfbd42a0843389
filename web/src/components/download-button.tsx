import { DownloadIcon, Loader2Icon } from "lucide-react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { type FileAnswer, useDownloadFromApi } from "@/lib/download";

type DownloadButtonProps = Pick<ButtonProps, "variant" | "size" | "className"> & {
  /** The typed call read as a blob: `() => api.GET("/api/portfolio/report", { parseAs: "blob" })`. */
  request: () => Promise<FileAnswer>;
  /** Saved under this name when the server names no file. */
  fallbackName: string;
  /** The button's text ("Download report"). */
  label: string;
  /** Its text while the file is made ("Preparing PDF…"): reports take a second or two. */
  busyLabel?: string;
  disabled?: boolean;
  testId?: string;
};

/**
 * A button that downloads a file the API makes (a PDF report): busy and disabled while it is
 * made, the server's reason toasted when it is refused (see `downloadFromApi`).
 */
export function DownloadButton({
  request,
  fallbackName,
  label,
  busyLabel = "Preparing PDF…",
  disabled = false,
  variant = "outline",
  size,
  className,
  testId,
}: DownloadButtonProps) {
  const { download, pending } = useDownloadFromApi();
  return (
    <>
      <Button
        type="button"
        variant={variant}
        size={size}
        className={className}
        disabled={disabled || pending}
        aria-busy={pending}
        data-testid={testId}
        onClick={() => void download(request, fallbackName)}
      >
        {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <DownloadIcon aria-hidden />}
        {pending ? busyLabel : label}
      </Button>
      {/* Present before it speaks, so screen readers announce the change. */}
      <span role="status" className="sr-only">
        {pending ? `${label}: preparing the file, this takes a second or two.` : ""}
      </span>
    </>
  );
}
