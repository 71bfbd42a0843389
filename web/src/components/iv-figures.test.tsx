import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { IvRankValue, IvSummary } from "./iv-figures";

describe("IvRankValue", () => {
  it("shows a rank as a whole number", () => {
    render(<IvRankValue rank={43.4} />);
    expect(screen.getByText("43")).toBeInTheDocument();
  });

  it("shows a hidden rank as a dash that says why, on hover and to screen readers", () => {
    const { container } = render(<IvRankValue rank={null} />);
    const value = container.firstElementChild!;
    expect(value).toHaveAttribute("title", "IV rank needs 200 recorded sessions");
    expect(value).toHaveTextContent("—IV rank needs 200 recorded sessions");
    expect(screen.getByText("—")).toHaveAttribute("aria-hidden");
    expect(screen.getByText("IV rank needs 200 recorded sessions")).toHaveClass("sr-only");
  });
});

describe("IvSummary", () => {
  it("is one short line, read out in full", () => {
    render(<IvSummary figures={{ impliedVolatility: 0.2534, ivRank: 43.4, ivPercentile: 61 }} />);
    const summary = screen.getByTestId("iv-summary");
    expect(screen.getByText("IV 25.3% · IVR 43")).toHaveAttribute("aria-hidden");
    expect(screen.getByText("Implied volatility 25.3%, IV rank 43, IV percentile 61")).toHaveClass("sr-only");
    expect(summary).not.toHaveAttribute("title");
  });

  it("says why the rank is hidden", () => {
    render(<IvSummary figures={{ impliedVolatility: 0.2534, ivRank: null, ivPercentile: null }} />);
    expect(screen.getByText("IV 25.3% · IVR —")).toBeInTheDocument();
    expect(screen.getByTestId("iv-summary")).toHaveAttribute("title", "IV rank needs 200 recorded sessions");
    expect(screen.getByText("Implied volatility 25.3%, IV rank needs 200 recorded sessions")).toBeInTheDocument();
  });
});
