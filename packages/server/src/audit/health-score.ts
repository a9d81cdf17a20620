/**
 * Loupe Health (the README's "Health score"; audit-checks.md §2.3 was its start): one 0–100
 * number for a crawl, its grade, and what each rule costs, which is what fixing it gives
 * back. Pure: findings in, numbers out.
 *
 * ```
 * s(p)   = 0                                   p answered 4xx/5xx or could not be fetched
 * s(p)   = ∏ over distinct rules r on p of (1 − w(r))                            otherwise
 * P      = (1/N) · Σ_p s(p)                    N = HTML pages + failed internal URLs
 * S      = ∏ over site findings k of (1 − w(k) · a(k))      a(k) ∈ [0,1], share affected
 * Health = round(100 · P · S)                  N/A if no 2xx HTML page, or crawl blocked
 * ```
 * Page weights: error 0.50, warning 0.15, notice 0.02; a rule may override in [0, 0.9].
 * Site weights (robots, sitemaps, http→https) are a fifth of those (0.10, 0.03, 0.004),
 * unless the rule overrides: a site-wide finding costs what the same finding on a fifth of
 * the pages would. Calibration: an error on every page → 50; a warning on every page → 85;
 * two → 72; no sitemap on a clean site → 97. Grades: A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F
 * below; colours: green ≥ 90, amber ≥ 70, red below. Both read the rounded score, so the
 * number shown and its grade always agree (89.5 shows 90 and is an A).
 *
 * A rule's points are its gain if fixed (below), on every surface. Each gain is the share of
 * the loss only that rule causes, so the points sum to at most 100 − the unrounded score;
 * the rest comes back only once every rule firing together on a URL is fixed.
 *
 * Gain if fixed, for every rule in one pass. Removing rule r changes only the pages where
 * r fires and the site findings of r, so with S_r = ∏ over r's site findings of (1 − w·a):
 *   S'_r = S / S_r                                     (every factor ≥ 0.1, so no 0/0)
 *   P'_r = P + (1/N) · Σ_{p ∋ r} (s'(p) − s(p)), where for a 2xx page
 *          s'(p) − s(p) = s(p)/(1 − w_r) − s(p) = s(p) · w_r/(1 − w_r)      (w_r ≤ 0.9)
 *   and for a failed URL whose status rule is r, s'(p) = ∏ of its other rules (the URL
 *   is taken to answer 200; we cannot know what its on-page checks would find), while
 *   removing any other rule from a failed URL leaves s = 0.
 * So one pass keeps Δ_r = Σ_{p ∋ r}(s'(p) − s(p)) per rule — O(rule hits) time, O(rules)
 * memory — and Health without r is 100 · (P + Δ_r/N) · S/S_r. No URL is visited twice.
 *
 * The accumulator holds only sums, so a report builder can stream 50,000+ URLs from the
 * database in pages. Plain double sums suffice: with N ≤ 10⁶ the worst-case rounding error
 * of P is N·2⁻⁵³ ≈ 10⁻¹⁰, i.e. 10⁻⁸ points.
 */

export type Severity = 'error' | 'warning' | 'notice';
export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type Colour = 'green' | 'amber' | 'red';

export const severityWeights: Readonly<Record<Severity, number>> = { error: 0.5, warning: 0.15, notice: 0.02 };
/** The largest weight a rule may override to (`robots/blocks-all`). */
export const maxWeight = 0.9;
/** A site finding's default weight, as a share of the same severity's weight on a page. */
export const siteWeightFactor = 0.2;

/** One distinct rule firing on a URL; `weight` overrides the severity's default. */
export interface RuleHit {
  ruleId: string;
  severity: Severity;
  weight?: number;
}

export interface ScoredUrl {
  url: string;
  /** The status rule (`status/client-error`, `status/server-error`, `status/fetch-failed`)
   * when the URL answered 4xx/5xx or could not be fetched: s(p) = 0 and that rule takes
   * the whole loss. Absent for a 2xx HTML page. 401/403/429 are not failures. */
  failedRule?: string;
  rules: readonly RuleHit[];
}

/** A finding that belongs to no page (robots, sitemaps, http→https). */
export interface SiteFinding extends RuleHit {
  /** a(k): share affected, 1 for yes/no findings such as `sitemaps/missing`. */
  share: number;
}

export interface HealthInput {
  urls: Iterable<ScoredUrl>;
  siteFindings: readonly SiteFinding[];
  blocked?: boolean;
}

export interface HealthOptions {
  /** The crawl stopped at its page limit: report a 95 % margin on the score. */
  partial?: boolean;
}

export interface LostPoints {
  ruleId: string;
  points: number;
}

export interface GainIfFixed {
  ruleId: string;
  /** Health with every finding of the rule removed, rounded as `score` is. */
  scoreWithout: number;
  exactScoreWithout: number;
  /** exactScoreWithout − exactScore, unrounded; ≥ 0. */
  gain: number;
}

export interface HealthResult {
  /** round(100·P·S); null when not applicable (see `unscoredReason`). */
  score: number | null;
  exactScore: number | null;
  grade: Grade | null;
  colour: Colour | null;
  unscoredReason: 'blocked' | 'no-html-page' | null;
  P: number | null;
  S: number | null;
  /** N: scored URLs (HTML pages plus failed URLs). */
  scoredUrls: number;
  /** What each rule costs: its gain if fixed, in the same order. They sum to at most
   * 100 − exactScore; the rest is lost to rules that fire together on a URL or the site. */
  lostPoints: LostPoints[];
  /** By gain, largest first. */
  gainIfFixed: GainIfFixed[];
  /** Share of scored URLs with no error-severity finding (Ahrefs-compatible). */
  errorFreeShare: number | null;
  /** ±1.96·sd(s)/√N in score points, for a partial crawl; null otherwise. */
  margin: number | null;
}

/** Half-up, forgiving 1e-9 of floating-point error so a true 89.5 still shows 90. */
export function roundScore(exact: number): number {
  return Math.round(exact + 1e-9);
}

export function gradeOf(score: number): Grade {
  const shown = roundScore(score);
  if (shown >= 90) return 'A';
  if (shown >= 80) return 'B';
  if (shown >= 70) return 'C';
  if (shown >= 60) return 'D';
  return 'F';
}

export function colourOf(score: number): Colour {
  const shown = roundScore(score);
  if (shown >= 90) return 'green';
  if (shown >= 70) return 'amber';
  return 'red';
}

export function weightOf(hit: RuleHit): number {
  const weight = hit.weight ?? severityWeights[hit.severity];
  if (!(weight >= 0 && weight <= maxWeight)) {
    throw new RangeError(`rule ${hit.ruleId}: weight ${weight} is outside [0, ${maxWeight}]`);
  }
  return weight;
}

/** Per-page score 100·s(p). */
export function pageScore(url: ScoredUrl): number {
  if (url.failedRule !== undefined) return 0;
  let s = 1;
  for (const weight of distinctWeights(url.rules).values()) s *= 1 - weight;
  return 100 * s;
}

/**
 * w(k) of a site finding: its rule's override as given, else a fifth of its severity's page
 * weight, so a missing sitemap costs what a warning on a fifth of the pages costs, not what
 * one on every page costs.
 */
export function siteWeightOf(hit: RuleHit): number {
  return weightOf(hit.weight === undefined ? { ...hit, weight: severityWeights[hit.severity] * siteWeightFactor } : hit);
}

interface RuleTally {
  /** Δ_r = Σ_{p ∋ r} (s'(p) − s(p)). */
  pageGain: number;
  /** Σ ln(1 − w·a) over this rule's site findings. */
  siteLog: number;
}

/** Add URLs one at a time (as pages of rows arrive), then `finish` once. */
export class HealthAccumulator {
  #urls = 0;
  #htmlPages = 0;
  #errorFree = 0;
  #sum = 0;
  // Welford's running mean and squared deviations of s(p), for the partial-crawl margin.
  #mean = 0;
  #m2 = 0;
  readonly #rules = new Map<string, RuleTally>();

  add(url: ScoredUrl): void {
    const weights = distinctWeights(url.rules);
    const s = url.failedRule === undefined ? this.#addPage(weights) : this.#addFailed(url.failedRule, weights);
    if (url.failedRule === undefined && !url.rules.some((hit) => hit.severity === 'error')) this.#errorFree += 1;
    this.#urls += 1;
    this.#sum += s;
    const delta = s - this.#mean;
    this.#mean += delta / this.#urls;
    this.#m2 += delta * (s - this.#mean);
  }

  finish(site: Omit<HealthInput, 'urls'>, options: HealthOptions = {}): HealthResult {
    const reason = site.blocked ? 'blocked' : this.#htmlPages === 0 ? 'no-html-page' : null;
    if (reason) return unscored(reason, this.#urls);
    let siteLog = 0;
    for (const finding of site.siteFindings) {
      if (!(finding.share >= 0 && finding.share <= 1)) {
        throw new RangeError(`site finding ${finding.ruleId}: share ${finding.share} is outside [0, 1]`);
      }
      const log = Math.log1p(-siteWeightOf(finding) * finding.share);
      this.#tally(finding.ruleId).siteLog += log;
      siteLog += log;
    }
    const n = this.#urls;
    const P = this.#sum / n;
    const S = Math.exp(siteLog);
    const exactScore = 100 * P * S;
    const gainIfFixed: GainIfFixed[] = [];
    for (const [ruleId, tally] of this.#rules) {
      const exactScoreWithout = 100 * (P + tally.pageGain / n) * Math.exp(siteLog - tally.siteLog);
      gainIfFixed.push({ ruleId, scoreWithout: roundScore(exactScoreWithout), exactScoreWithout, gain: exactScoreWithout - exactScore });
    }
    gainIfFixed.sort((a, b) => byLargest(a.gain, b.gain) || compareIds(a.ruleId, b.ruleId));
    // What a rule costs is what fixing it gives back: one number, so no surface can disagree.
    const lostPoints = gainIfFixed.map(({ ruleId, gain }) => ({ ruleId, points: gain }));
    const margin = options.partial && n > 1 ? (100 * S * 1.96 * Math.sqrt(this.#m2 / (n - 1))) / Math.sqrt(n) : null;
    return {
      score: roundScore(exactScore),
      exactScore,
      grade: gradeOf(exactScore),
      colour: colourOf(exactScore),
      unscoredReason: null,
      P,
      S,
      scoredUrls: n,
      lostPoints,
      gainIfFixed,
      errorFreeShare: this.#errorFree / n,
      margin,
    };
  }

  #addPage(weights: Map<string, number>): number {
    this.#htmlPages += 1;
    let logS = 0;
    for (const weight of weights.values()) logS += Math.log1p(-weight);
    const s = Math.exp(logS);
    for (const [ruleId, weight] of weights) {
      const tally = this.#tally(ruleId);
      tally.pageGain += (s * weight) / (1 - weight);
    }
    return s;
  }

  #addFailed(failedRule: string, weights: Map<string, number>): number {
    let sIfAnswered = 1;
    for (const [ruleId, weight] of weights) {
      this.#tally(ruleId);
      if (ruleId !== failedRule) sIfAnswered *= 1 - weight;
    }
    this.#tally(failedRule).pageGain += sIfAnswered;
    return 0;
  }

  #tally(ruleId: string): RuleTally {
    let tally = this.#rules.get(ruleId);
    if (!tally) {
      tally = { pageGain: 0, siteLog: 0 };
      this.#rules.set(ruleId, tally);
    }
    return tally;
  }
}

/**
 * Loupe Health for a whole crawl.
 *
 * @example
 * computeHealth({
 *   urls: [{ url: 'https://example.com/', rules: [{ ruleId: 'descriptions/missing', severity: 'warning' }] }],
 *   siteFindings: [{ ruleId: 'sitemaps/missing', severity: 'warning', share: 1 }],
 * }).score; // 72
 */
export function computeHealth(input: HealthInput, options: HealthOptions = {}): HealthResult {
  const accumulator = new HealthAccumulator();
  for (const url of input.urls) accumulator.add(url);
  return accumulator.finish(input, options);
}

/** A rule counts once per URL however many instances it has (§0); the heaviest wins. */
function distinctWeights(hits: readonly RuleHit[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const hit of hits) weights.set(hit.ruleId, Math.max(weightOf(hit), weights.get(hit.ruleId) ?? 0));
  return weights;
}

function unscored(reason: 'blocked' | 'no-html-page', scoredUrls: number): HealthResult {
  return {
    score: null,
    exactScore: null,
    grade: null,
    colour: null,
    unscoredReason: reason,
    P: null,
    S: null,
    scoredUrls,
    lostPoints: [],
    gainIfFixed: [],
    errorFreeShare: null,
    margin: null,
  };
}

/** Values within 1e-9 points are ties, so rounding noise does not decide the order. */
function byLargest(a: number, b: number): number {
  return Math.abs(b - a) > 1e-9 ? b - a : 0;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
