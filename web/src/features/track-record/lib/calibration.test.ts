import { describe, expect, it } from "vitest";
import { makeBin, makeFigures, makeTrackRecordSummary } from "@/test/track-record-fixtures";
import {
  binRange,
  calibrationGroups,
  everyInterval,
  formatEdge,
  formatProbability,
  formatScore4,
  heldOutVerdict,
  periodText,
  rollingSummary,
  signalCount,
  targetVerdicts,
  verdictText,
  verifyCommand,
  wilsonRange,
  yearsText,
} from "./calibration";

describe("calibration helpers", () => {
  it("list the pooled group first, then the strategies in the server's order, with slug ids", () => {
    const groups = calibrationGroups(makeTrackRecordSummary());
    expect(groups.map((g) => [g.id, g.label])).toEqual([
      ["pooled", "Pooled"],
      ["momentum", "Momentum"],
      ["mean-reversion", "Mean Reversion"],
      ["breakout", "Breakout"],
      ["volatility", "Volatility"],
    ]);
    expect(groups[2].calibration.figures).toBeNull();
  });

  it("format scores with four decimals and probabilities as percentages", () => {
    expect(formatScore4(0.21428)).toBe("0.2143");
    expect(formatScore4(-0.0123)).toBe("-0.0123");
    expect(formatScore4(null)).toBe("—");
    expect(formatProbability(0.5833)).toBe("58.3%");
    expect(formatProbability(undefined)).toBe("—");
  });

  it("format bin edges without spurious decimals, even where floating point rounds short", () => {
    expect(formatEdge(0)).toBe("0%");
    expect(formatEdge(0.1)).toBe("10%");
    expect(formatEdge(0.41)).toBe("41%");
    expect(formatEdge(0.7000000000000001)).toBe("70%");
    expect(formatEdge(0.645)).toBe("64.5%");
    expect(binRange({ lower: 0.6, upper: 0.7 })).toBe("60%–70%");
  });

  it("give an empty bin no interval", () => {
    expect(wilsonRange(makeBin(0, 0.1))).toBe("—");
    expect(wilsonRange(makeBin(0.4, 0.5, 18, 8, 0.45))).toBe("24.6%–66.3%");
  });

  it("state the period and the count", () => {
    expect(periodText({ firstDay: "2026-09-02", lastDay: "2026-11-23" })).toBe("Sep 2, 2026 – Nov 23, 2026");
    expect(periodText({ firstDay: "2026-11-23", lastDay: "2026-11-23" })).toBe("Nov 23, 2026");
    expect(periodText({ firstDay: null, lastDay: null })).toBeNull();
    expect(signalCount(1)).toBe("1 resolved live signal");
    expect(signalCount(1412)).toBe("1,412 resolved live signals");
  });

  it("state each target plainly, met or missed, with its value", () => {
    const targets = { eceTarget: 0.05, skillTarget: 0 };
    const [ece, skill] = targetVerdicts(targets, makeFigures());
    expect(`${ece.label}: ${verdictText(ece)}`).toBe("Calibration target ECE ≤ 0.05: missed (0.0731)");
    expect(`${skill.label}: ${verdictText(skill)}`).toBe("Skill target > 0: met (0.0412)");

    const [, undefinedSkill] = targetVerdicts(targets, makeFigures({ skill: null, meetsSkillTarget: false }));
    expect(verdictText(undefinedSkill)).toBe("missed (no skill score: every signal in the group won, or every one lost)");
  });

  it("sum up the rolling Brier line", () => {
    expect(rollingSummary(makeFigures().rollingBrier, 90)).toBe(
      "4 days from Oct 1, 2026 to Nov 23, 2026. Latest: 0.2143 over 120 signals resolved in the 90 days to Nov 23, 2026; lowest 0.2143, highest 0.2311.",
    );
    expect(rollingSummary([], 90)).toBe("No rolling 90-day figure yet.");
  });

  it("say how often heads are signed, and build the verify command", () => {
    expect(everyInterval(3600)).toBe("every hour");
    expect(everyInterval(7200)).toBe("every 2 hours");
    expect(everyInterval(1800)).toBe("every 30 minutes");
    expect(everyInterval(45)).toBe("every 45 seconds");
    expect(verifyCommand("ab12")).toBe("strikeline verify track-record.json --key ab12");
    expect(verifyCommand(null)).toBe("strikeline verify track-record.json --key <public key>");
  });
});

describe("predictive model helpers", () => {
  it("read the held-out years as a range when they run on, else as a list", () => {
    expect(yearsText([2023, 2024, 2025])).toBe("2023–2025");
    expect(yearsText([2025, 2023, 2024])).toBe("2023–2025");
    expect(yearsText([2022, 2024])).toBe("2022 and 2024");
    expect(yearsText([2021, 2023, 2025])).toBe("2021, 2023 and 2025");
    expect(yearsText([2025])).toBe("2025");
    expect(yearsText([])).toBe("—");
  });

  it("state whether the model beat the strength score as a target, met or missed, with its skill over strength", () => {
    const met = heldOutVerdict({ beatsStrength: true, skillOverStrength: 0.07486 });
    expect(met).toMatchObject({ id: "beats-strength", label: "Skill over strength > 0", met: true, value: "0.0749" });
    expect(verdictText(met)).toBe("met (0.0749)");
    expect(verdictText(heldOutVerdict({ beatsStrength: false, skillOverStrength: -0.0213 }))).toBe("missed (-0.0213)");
  });
});
