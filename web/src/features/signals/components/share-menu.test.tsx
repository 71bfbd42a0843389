import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureDownloads, makeSignal } from "@/test/fixtures";
import { renderWithProviders } from "@/test/utils";
import * as share from "../lib/share";

/** jsdom cannot draw: a 2D context that accepts every call, and a toBlob that answers. */
function fakeCanvas() {
  const ctx = new Proxy(
    {},
    {
      get: (_, prop) => {
        if (prop === "measureText") return () => ({ width: 100 });
        if (prop === "createLinearGradient") return () => ({ addColorStop: () => {} });
        return () => {};
      },
      set: () => true,
    },
  );
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(ctx as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation((callback) => callback(new Blob(["png"], { type: "image/png" })));
}
import { ShareMenu } from "./share-menu";

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "share");
  Reflect.deleteProperty(navigator, "canShare");
});

async function choose(item: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Share" }));
  return { user, item: await screen.findByRole("menuitem", { name: item }) };
}

describe("ShareMenu", () => {
  it("links to the X post intent in a new tab", async () => {
    renderWithProviders(<ShareMenu position={makeSignal()} />);
    const { item } = await choose("Share on X");
    expect(item).toHaveAttribute("href", share.tweetIntentUrl(share.shareText(makeSignal())));
    expect(item).toHaveAttribute("target", "_blank");
    expect(item.getAttribute("rel")).toContain("noopener");
  });

  it("copies the share text", async () => {
    renderWithProviders(<ShareMenu position={makeSignal()} />);
    const { user, item } = await choose("Copy text");
    await user.click(item);
    expect(await screen.findByText("Copied")).toBeInTheDocument();
    expect(screen.getByText("Share text copied to clipboard")).toBeInTheDocument();
    // user-event puts its own clipboard in place.
    expect(await navigator.clipboard.readText()).toBe(share.shareText(makeSignal()));
  });

  it("downloads the image where the browser cannot share files", async () => {
    fakeCanvas();
    const downloads = captureDownloads();
    renderWithProviders(<ShareMenu position={makeSignal()} />);
    const { user, item } = await choose("Share image");
    await user.click(item);
    expect(await screen.findByText("Image Downloaded")).toBeInTheDocument();
    expect(downloads.names).toEqual(["strikeline-AAPL-call.png"]);
  });

  it("uses the system share sheet when it can share the file", async () => {
    fakeCanvas();
    const nativeShare = vi.fn(() => Promise.resolve());
    Object.assign(navigator, { share: nativeShare, canShare: () => true });
    renderWithProviders(<ShareMenu position={makeSignal()} />);
    const { user, item } = await choose("Share image");
    await user.click(item);
    expect(await screen.findByText("Shared Successfully")).toBeInTheDocument();
    expect(nativeShare).toHaveBeenCalledWith(expect.objectContaining({ files: [expect.any(File)] }));
  });

  it("says so when the image cannot be made", async () => {
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
    renderWithProviders(<ShareMenu position={makeSignal()} />);
    const { user, item } = await choose("Share image");
    await user.click(item);
    expect(await screen.findByText("Failed to generate share image")).toBeInTheDocument();
  });
});
