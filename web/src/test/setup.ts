import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";

// Node-environment tests (e.g. the API schema check) have no DOM to reset.
if (typeof window !== "undefined") {
  const { cleanup } = await import("@testing-library/react");
  const { resetToastsForTests } = await import("@/lib/toast");
  // jsdom has no layout: scrolling is a no-op in tests.
  window.scrollTo = () => {};
  Element.prototype.scrollIntoView = () => {};
  afterEach(() => {
    cleanup();
    resetToastsForTests();
    window.localStorage.clear();
    document.documentElement.className = "";
  });
}
