// Prints the plain closing line CI counts: "N passed, N failed" (", N skipped" when any).
export default class CountReporter {
  passed = 0;
  failed = 0;
  skipped = 0;

  printsToStdio() {
    return true;
  }

  onTestEnd(test, result) {
    // Count each test once, by its final attempt.
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    if (result.status === "passed") this.passed += 1;
    else if (result.status === "skipped") this.skipped += 1;
    else this.failed += 1;
  }

  onEnd(result) {
    if (result.status !== "passed" && this.failed === 0) this.failed = 1;
    const skipped = this.skipped > 0 ? `, ${this.skipped} skipped` : "";
    process.stdout.write(`\n${this.passed} passed, ${this.failed} failed${skipped}\n`);
  }
}
