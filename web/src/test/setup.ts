import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";

// Node-environment tests (e.g. the API schema check) have no DOM to reset.
if (typeof window !== "undefined") {
  const { cleanup, configure } = await import("@testing-library/react");
  // `findBy…` waits up to 5 s: on a busy 2-core machine running the whole suite a render after
  // a mocked request can take longer than the 1 s default.
  configure({ asyncUtilTimeout: 5_000 });
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
