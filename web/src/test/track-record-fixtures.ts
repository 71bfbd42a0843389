import type {
  Bin,
  Calibration,
  Figures,
  HeadList,
  HeldOutEvaluation,
  PublishedHead,
  PublishedModel,
  RollingPoint,
  TrackRecordSummary,
  TreeHeadKey,
} from "@/lib/api/models";
import { jsonResponse } from "./utils";

const Z = 1.959963984540054;

/** A bin as the server answers it: observed frequency and its 95% Wilson interval from n and wins; empty when n is 0. */
export function makeBin(lower: number, upper: number, n = 0, wins = 0, meanForecast: number | null = null): Bin {
  if (n === 0) {
    return { lower, upper, n: 0, wins: 0, meanForecast: null, observedFrequency: null, wilsonLow: null, wilsonHigh: null };
  }
  const p = wins / n;
  const centre = p + (Z * Z) / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  const denominator = 1 + (Z * Z) / n;
  return {
    lower,
    upper,
    n,
    wins,
    meanForecast: meanForecast ?? (lower + upper) / 2,
    observedFrequency: p,
    wilsonLow: (centre - spread) / denominator,
    wilsonHigh: (centre + spread) / denominator,
  };
}

/** Ten equal-width bins; `filled` gives [n, wins, meanForecast] for the bins that have signals, by index. */
export function makeEqualWidthBins(filled: Record<number, [number, number, number]>): Bin[] {
  return Array.from({ length: 10 }, (_, i) => {
    const row = filled[i];
    const lower = i / 10;
    const upper = (i + 1) / 10;
    return row ? makeBin(lower, upper, row[0], row[1], row[2]) : makeBin(lower, upper);
  });
}

export function makeRollingBrier(): RollingPoint[] {
  return [
    { day: "2026-10-01", n: 40, brier: 0.2311 },
    { day: "2026-10-15", n: 72, brier: 0.2254 },
    { day: "2026-11-02", n: 101, brier: 0.2187 },
    { day: "2026-11-23", n: 120, brier: 0.2143 },
  ];
}

/**
 * Figures that miss the ECE target (0.0731 > 0.05) and meet the skill target (0.0412 > 0):
 * five equal-width bins with signals (40%–90%), and ten equal-count bins with uneven edges.
 */
export function makeFigures(overrides: Partial<Figures> = {}): Figures {
  return {
    meanForecast: 0.6125,
    baseRate: 0.55,
    brier: 0.2143,
    skill: 0.0412,
    reliability: 0.0098,
    resolution: 0.0203,
    uncertainty: 0.2475,
    withinBinVariance: 0.0021,
    withinBinCovariance: 0.0124,
    eceEqualWidth: 0.0731,
    eceEqualCount: 0.0812,
    meetsEceTarget: false,
    meetsSkillTarget: true,
    binsEqualWidth: makeEqualWidthBins({
      4: [18, 8, 0.452],
      5: [31, 15, 0.553],
      6: [36, 21, 0.648],
      7: [24, 15, 0.741],
      8: [11, 7, 0.836],
    }),
    binsEqualCount: [
      makeBin(0.41, 0.48, 12, 5, 0.452),
      makeBin(0.48, 0.53, 12, 6, 0.507),
      makeBin(0.53, 0.56, 12, 6, 0.546),
      makeBin(0.56, 0.59, 12, 7, 0.575),
      makeBin(0.59, 0.62, 12, 6, 0.604),
      makeBin(0.62, 0.645, 12, 7, 0.633),
      makeBin(0.645, 0.67, 12, 7, 0.658),
      makeBin(0.67, 0.71, 12, 8, 0.691),
      makeBin(0.71, 0.765, 12, 7, 0.738),
      makeBin(0.765, 0.88, 12, 7, 0.812),
    ],
    rollingBrier: makeRollingBrier(),
    ...overrides,
  };
}

export function makeCalibration(overrides: Partial<Calibration> = {}): Calibration {
  return { n: 120, wins: 66, firstDay: "2026-09-02", lastDay: "2026-11-23", figures: makeFigures(), ...overrides };
}

/**
 * The model against the strength on 2023–2025 (5,210 backtested signals, base rate 51.2%): the
 * model's Brier 0.2311 beats the strength's 0.2498 (skill over strength 0.0749).
 */
export function makeHeldOutEvaluation(overrides: Partial<HeldOutEvaluation> = {}): HeldOutEvaluation {
  return {
    years: [2023, 2024, 2025],
    n: 5210,
    baseRate: 0.512,
    model: {
      brier: 0.2311,
      skill: 0.0751,
      ece: 0.0214,
      reliability: [
        { meanForecast: 0.38, observedFrequency: 0.36, n: 1410 },
        { meanForecast: 0.52, observedFrequency: 0.53, n: 2380 },
        { meanForecast: 0.66, observedFrequency: 0.64, n: 1420 },
      ],
    },
    strength: {
      brier: 0.2498,
      skill: 0.0002,
      ece: 0.0967,
      reliability: [
        { meanForecast: 0.55, observedFrequency: 0.49, n: 2600 },
        { meanForecast: 0.75, observedFrequency: 0.54, n: 2610 },
      ],
    },
    skillOverStrength: 0.0749,
    beatsStrength: true,
    ...overrides,
  };
}

/** The newest model: trained through Nov 20, 2026 on 18,432 examples, shipping, with its held-out evaluation. */
export function makePublishedModel(overrides: Partial<PublishedModel> = {}): PublishedModel {
  return {
    version: "2026-11-20.1",
    createdAt: "2026-11-20T22:10:00Z",
    trainedThrough: "2026-11-20",
    examples: 18_432,
    ships: true,
    evaluation: makeHeldOutEvaluation(),
    ...overrides,
  };
}

/**
 * GET /api/public/track-record: pooled figures that miss the ECE target, Momentum, Breakout and
 * Volatility with figures, Mean Reversion under 30 resolved signals (no figures), and a
 * risk-neutral calibration that meets both targets, a shipping model (makePublishedModel) and
 * its live calibration on 41 signals, meeting both targets.
 */
export function makeTrackRecordSummary(overrides: Partial<TrackRecordSummary> = {}): TrackRecordSummary {
  return {
    generatedAt: "2026-11-23T21:00:00Z",
    minimumSample: 30,
    eceTarget: 0.05,
    skillTarget: 0,
    rollingWindowDays: 90,
    pooled: makeCalibration(),
    strategies: [
      {
        strategy: "Momentum",
        strength: makeCalibration({ n: 45, wins: 26, figures: makeFigures({ brier: 0.2051, eceEqualWidth: 0.0412 }) }),
      },
      { strategy: "Mean Reversion", strength: { n: 12, wins: 5, firstDay: "2026-10-06", lastDay: "2026-11-20", figures: null } },
      { strategy: "Breakout", strength: makeCalibration({ n: 33, wins: 18 }) },
      { strategy: "Volatility", strength: makeCalibration({ n: 30, wins: 17 }) },
    ],
    riskNeutral: makeCalibration({
      n: 64,
      wins: 27,
      firstDay: "2026-10-16",
      lastDay: "2026-11-20",
      figures: makeFigures({ brier: 0.1987, skill: 0.1502, eceEqualWidth: 0.0318, meetsEceTarget: true, meetsSkillTarget: true }),
    }),
    modelLive: makeCalibration({
      n: 41,
      wins: 24,
      firstDay: "2026-11-02",
      lastDay: "2026-11-23",
      figures: makeFigures({ brier: 0.2204, skill: 0.0921, eceEqualWidth: 0.0462, meetsEceTarget: true, meetsSkillTarget: true }),
    }),
    model: makePublishedModel(),
    excluded: { replayed: 240, unrecorded: 3, withoutOutcome: 17 },
    ...overrides,
  };
}

export const PUBLIC_KEY = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";

export function makeTreeHeadKey(overrides: Partial<TreeHeadKey> = {}): TreeHeadKey {
  return {
    algorithm: "Ed25519",
    publicKey: PUBLIC_KEY,
    signedMessage: '"strikeline/tree-head/v1\\0" ‖ treeSize (u64, big-endian) ‖ timestampMs (i64, big-endian) ‖ rootHash (32 bytes)',
    headIntervalSeconds: 3600,
    ...overrides,
  };
}

export function makePublishedHead(overrides: Partial<PublishedHead> = {}): PublishedHead {
  return {
    treeSize: 1482,
    timestampMs: Date.parse("2026-11-23T21:00:00Z"),
    timestamp: "2026-11-23T21:00:00Z",
    rootHash: "5f4c1a0a2f1e6bb0d1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718",
    signature: "a".repeat(128),
    ...overrides,
  };
}

export function makeHeadList(latest: PublishedHead | null = makePublishedHead()): HeadList {
  return { heads: latest ? [latest] : [], latest };
}

/** Answers for the track record's endpoints (the page never fetches the export); undefined for any other URL. */
export function trackRecordApi(url: string, summary: TrackRecordSummary = makeTrackRecordSummary()): Response | undefined {
  if (url === "/api/public/track-record") return jsonResponse(summary);
  if (url === "/api/public/track-record/key") return jsonResponse(makeTreeHeadKey());
  if (url.startsWith("/api/public/track-record/heads")) return jsonResponse(makeHeadList());
  return undefined;
}
