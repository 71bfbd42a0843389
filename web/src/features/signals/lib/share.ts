import type { Signal } from "@/lib/api/models";
import { downloadFile } from "@/lib/csv";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatScore, formatSignedCurrency, formatSignedPercent, NO_VALUE } from "@/lib/format";

/** What a shared position shows: the signal's contract, prices, strength, status, strategy and P&L. */
export type SharePosition = Pick<
  Signal,
  | "symbol"
  | "companyName"
  | "signalType"
  | "strikePrice"
  | "entryPrice"
  | "currentPrice"
  | "currentOptionPrice"
  | "expirationDate"
  | "confidence"
  | "status"
  | "strategy"
  | "pnl"
  | "pnlPercent"
>;

export const SHARE_IMAGE_SIZE = 1080;

function pnlText(p: SharePosition): string | null {
  if (p.pnl == null) return null;
  return p.pnlPercent == null ? formatSignedCurrency(p.pnl) : `${formatSignedCurrency(p.pnl)} (${formatSignedPercent(p.pnlPercent)})`;
}

/**
 * The post text: "AAPL CALL, $250.00 strike, expires Dec 18, 2026 · Momentum · strength 78/100 ·
 * P&L +$45.00 (+12.5%) · via Strikeline". The strength is a heuristic score, not a probability,
 * so it is never written as a percentage. The strike stays in US dollars ("US$250.00" when money
 * is shown in another currency); the P&L is money, in the display currency.
 */
export function shareText(p: SharePosition): string {
  const head = [p.symbol, p.signalType].filter(Boolean).join(" ");
  const parts = [head];
  if (p.strikePrice != null) parts[0] += `, ${formatContractPrice(p.strikePrice)} strike`;
  if (p.expirationDate) parts[0] += `, expires ${formatShortDate(p.expirationDate)}`;
  parts.push(p.strategy);
  if (p.confidence != null) parts.push(`strength ${formatScore(p.confidence)}`);
  const pnl = pnlText(p);
  if (pnl) parts.push(`P&L ${pnl} per contract`);
  parts.push("via Strikeline (not financial advice)");
  return parts.join(" · ");
}

/** The X (Twitter) post intent for `text`. */
export function tweetIntentUrl(text: string): string {
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}`;
}

export function shareImageFilename(p: SharePosition): string {
  const safe = p.symbol.replace(/[^A-Za-z0-9.-]/g, "");
  return `strikeline-${safe}-${(p.signalType ?? "signal").toLowerCase()}.png`;
}

const FONT = `"Inter Variable", Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;

/** The image is a picture, not a page: it has its own fixed palette, the same in both themes. */
const COLORS = {
  bgTop: "#0f1524",
  bgBottom: "#18223b",
  panel: "rgba(255,255,255,0.06)",
  panelBorder: "rgba(255,255,255,0.10)",
  text: "#f4f6fb",
  muted: "#9aa6bf",
  accent: "#5b86ff",
  call: "#34c77b",
  put: "#ff6b6b",
  straddle: "#7ea2ff",
} as const;

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function fitText(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > maxWidth) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function typeColor(type: SharePosition["signalType"]): string {
  return type === "PUT" ? COLORS.put : type === "STRADDLE" ? COLORS.straddle : COLORS.call;
}

/** Draws the 1080 × 1080 share card onto `canvas`. */
export function drawShareImage(canvas: HTMLCanvasElement, p: SharePosition): void {
  const S = SHARE_IMAGE_SIZE;
  canvas.width = S;
  canvas.height = S;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("Canvas 2D is not available");

  const bg = ctx.createLinearGradient(0, 0, S, S);
  bg.addColorStop(0, COLORS.bgTop);
  bg.addColorStop(1, COLORS.bgBottom);
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, S, S);
  ctx.textBaseline = "alphabetic";

  // Wordmark: the logo mark and "Strikeline".
  const pad = 80;
  roundedRect(ctx, pad, pad, 64, 64, 14);
  ctx.fillStyle = COLORS.accent;
  ctx.fill();
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 5.2;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.beginPath();
  const k = 2;
  ctx.moveTo(pad + 7 * k, pad + 21.5 * k);
  ctx.lineTo(pad + 13 * k, pad + 15 * k);
  ctx.lineTo(pad + 17 * k, pad + 19 * k);
  ctx.lineTo(pad + 25 * k, pad + 10 * k);
  ctx.moveTo(pad + 20 * k, pad + 10 * k);
  ctx.lineTo(pad + 25 * k, pad + 10 * k);
  ctx.lineTo(pad + 25 * k, pad + 15 * k);
  ctx.stroke();
  ctx.fillStyle = COLORS.text;
  ctx.font = `700 44px ${FONT}`;
  ctx.fillText("Strikeline", pad + 86, pad + 47);

  // Status, top right.
  ctx.font = `600 28px ${FONT}`;
  const status = (p.status ?? "").toUpperCase();
  const statusWidth = ctx.measureText(status).width + 40;
  roundedRect(ctx, S - pad - statusWidth, pad + 8, statusWidth, 48, 24);
  ctx.fillStyle = COLORS.panel;
  ctx.fill();
  ctx.fillStyle = COLORS.muted;
  ctx.fillText(status, S - pad - statusWidth + 20, pad + 42);

  // Symbol, company, type.
  ctx.fillStyle = COLORS.text;
  ctx.font = `800 150px ${FONT}`;
  ctx.fillText(fitText(ctx, p.symbol, S - 2 * pad), pad, 340);
  ctx.fillStyle = COLORS.muted;
  ctx.font = `500 40px ${FONT}`;
  ctx.fillText(fitText(ctx, p.companyName, S - 2 * pad), pad, 404);

  const type = p.signalType ?? "SIGNAL";
  ctx.font = `700 40px ${FONT}`;
  const typeWidth = ctx.measureText(type).width + 56;
  roundedRect(ctx, pad, 446, typeWidth, 68, 34);
  ctx.fillStyle = typeColor(p.signalType);
  ctx.fill();
  ctx.fillStyle = "#0b1020";
  ctx.fillText(type, pad + 28, 494);

  // Figures: two columns, three rows; P&L spans the last row.
  const pnl = pnlText(p);
  const cells: { label: string; value: string; color?: string; wide?: boolean }[] = [
    { label: "Strike", value: formatContractPrice(p.strikePrice) },
    { label: "Expiry", value: p.expirationDate ? formatShortDate(p.expirationDate) : NO_VALUE },
    { label: "Strength", value: formatScore(p.confidence) },
    { label: "Strategy", value: p.strategy },
    {
      label: "P&L per contract",
      value: pnl ?? NO_VALUE,
      color: p.pnl == null || p.pnl === 0 ? COLORS.text : p.pnl > 0 ? COLORS.call : COLORS.put,
      wide: true,
    },
  ];
  const gap = 24;
  const cellW = (S - 2 * pad - gap) / 2;
  const cellH = 128;
  let x = pad;
  let y = 566;
  for (const cell of cells) {
    const w = cell.wide ? S - 2 * pad : cellW;
    roundedRect(ctx, x, y, w, cellH, 20);
    ctx.fillStyle = COLORS.panel;
    ctx.fill();
    ctx.strokeStyle = COLORS.panelBorder;
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.fillStyle = COLORS.muted;
    ctx.font = `500 28px ${FONT}`;
    ctx.fillText(cell.label, x + 28, y + 46);
    ctx.fillStyle = cell.color ?? COLORS.text;
    ctx.font = `700 46px ${FONT}`;
    ctx.fillText(fitText(ctx, cell.value, w - 56), x + 28, y + 100);
    if (cell.wide || x > pad) {
      x = pad;
      y += cellH + gap;
    } else {
      x += cellW + gap;
    }
  }

  ctx.fillStyle = COLORS.muted;
  ctx.font = `500 26px ${FONT}`;
  ctx.fillText("Options signal shared from Strikeline · Not financial advice", pad, S - 70);
}

/** Renders the share card as a PNG. Rejects when the browser cannot draw or encode it. */
export async function renderShareImage(p: SharePosition): Promise<Blob> {
  try {
    await document.fonts?.load(`700 44px "Inter Variable"`);
  } catch {
    // A missing web font only changes the typeface.
  }
  const canvas = document.createElement("canvas");
  drawShareImage(canvas, p);
  return new Promise<Blob>((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("Could not encode the image"))), "image/png");
  });
}

export type ShareImageOutcome = "shared" | "downloaded" | "cancelled";

/**
 * Renders the card and hands it to the system share sheet when the browser can share
 * files; otherwise, or when sharing fails, downloads it. Closing the share sheet is not a
 * failure ("cancelled"). Rejects only when the image cannot be made.
 */
export async function shareImage(p: SharePosition): Promise<ShareImageOutcome> {
  const blob = await renderShareImage(p);
  const filename = shareImageFilename(p);
  if (typeof navigator.share === "function" && typeof navigator.canShare === "function" && typeof File === "function") {
    const file = new File([blob], filename, { type: "image/png" });
    if (navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: `${p.symbol} ${p.signalType ?? "signal"} on Strikeline`, text: shareText(p) });
        return "shared";
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
        // Any other failure falls back to downloading the image.
      }
    }
  }
  downloadFile(filename, blob, "image/png");
  return "downloaded";
}
