import type { Locator } from "@playwright/test";

// WCAG 2 contrast of what the browser paints: the text colour of an element against the colour
// of the backgrounds under it, composited the way the browser composites them (a translucent
// hover colour over the card, and so on). Colours are read through a canvas, so any CSS colour
// the browser supports (oklch, color-mix) comes back as the sRGB it paints.

export type Contrast = {
  /** The text colour as painted, "rgb(r, g, b)". */
  text: string;
  /** The background as painted. */
  background: string;
  /** The WCAG 2 contrast ratio, 1 to 21. */
  ratio: number;
};

/**
 * Waits until the animations and transitions of `target` and its descendants have ended (a
 * toast sliding in, a hover colour fading in); endless ones (a spinner) are left alone.
 */
export async function settleAnimations(target: Locator) {
  await target.evaluate(async (element) => {
    const finite = element.getAnimations({ subtree: true }).filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * The contrast of `locator`'s text (its computed `color`) against its painted background:
 * its own background and its ancestors' down to the first opaque one (white if none is), each
 * composited over the one below. The text is faded by the opacity of the elements between it
 * and that background (an icon at 70%); fails if the background itself is faded.
 */
export async function contrastOf(locator: Locator): Promise<Contrast> {
  return locator.evaluate((element) => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) throw new Error("no 2D canvas");
    const alphaOf = (color: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, 1, 1);
      return ctx.getImageData(0, 0, 1, 1).data[3] / 255;
    };

    // The text is faded by the opacity of every element between it and its opaque background
    // (a close icon at 70%); a fade of that background itself (a toast sliding in) would fade
    // both, and the figure would mean nothing.
    let textOpacity = 1;
    let backdrop: Element | null = null;
    const layers: string[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const bg = style.backgroundColor;
      if (alphaOf(bg) > 0) layers.push(bg);
      if (alphaOf(bg) >= 1) {
        backdrop = node;
        break;
      }
      textOpacity *= Number(style.opacity);
    }
    for (let node = backdrop; node; node = node.parentElement) {
      const opacity = Number(getComputedStyle(node).opacity);
      if (opacity < 1) throw new Error(`the background is faded (opacity ${opacity}): wait for the animation to end`);
    }

    // Paint from the bottom layer up, on white (the canvas of a page without a background).
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, 1, 1);
    for (const layer of layers.reverse()) {
      ctx.fillStyle = layer;
      ctx.fillRect(0, 0, 1, 1);
    }
    const [br, bgr, bb] = ctx.getImageData(0, 0, 1, 1).data;
    ctx.globalAlpha = textOpacity;
    ctx.fillStyle = getComputedStyle(element).color;
    ctx.fillRect(0, 0, 1, 1);
    ctx.globalAlpha = 1;
    const [tr, tg, tb] = ctx.getImageData(0, 0, 1, 1).data;

    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (r: number, g: number, b: number) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const a = luminance(tr, tg, tb);
    const b = luminance(br, bgr, bb);
    return {
      text: `rgb(${tr}, ${tg}, ${tb})`,
      background: `rgb(${br}, ${bgr}, ${bb})`,
      ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
    };
  });
}
