import type { Transforms } from '@loupe/contract';
import type { Size } from '../transform/resize-plan.ts';

/**
 * Responsive delivery by client hints (issue #26 point 3), for projects that turn it on.
 * Meanings follow the Responsive Image Client Hints draft (WICG) and imgix's `ch`:
 * - `Sec-CH-DPR` / `DPR`: the device pixel ratio; it replaces the preset's `dpr`, rounded to
 *   the nearest whole number and clamped to the contract's 1…3.
 * - `Sec-CH-Width` / `Width`: the width the image takes in the layout, in physical pixels
 *   (already × DPR, so DPR is not applied again). It replaces the preset's width, rounded
 *   up to a multiple of WIDTH_STEP (one variant per step, not per pixel) and never beyond
 *   the original's width; a preset's height follows to keep its box's aspect ratio.
 * - `Save-Data: on`: quality at most SAVE_DATA_QUALITY (imgix's q=45), or the `low`
 *   perceptual target when the preset asks for a `qualityMode`.
 * Explicit URL parameters win: `w` or `h` in the URL turns the Width hint off, `dpr` the DPR
 * hint, `q` or `qualityMode` Save-Data. Unparsable or out-of-range values are ignored.
 */
export const WIDTH_STEP = 100;
export const SAVE_DATA_QUALITY = 45;
const DPR_RANGE = { min: 1, max: 3 };
const MAX_WIDTH = 8192;

/** `Accept-CH` of every CDN answer of a project with hints on: the hints it honours. */
export const ACCEPT_CH = 'Sec-CH-DPR, Sec-CH-Width, DPR, Width, Save-Data';
/** The request headers of each hint, the standard name first (it wins when both are sent). */
const HEADERS = { dpr: ['Sec-CH-DPR', 'DPR'], width: ['Sec-CH-Width', 'Width'], saveData: ['Save-Data'] } as const;

export interface ClientHints {
  dpr?: number;
  /** Physical pixels. */
  width?: number;
  saveData: boolean;
}

type HeaderValue = string | string[] | undefined;

/** The first header of `names` that was sent; a repeated header (an array, or values joined by commas) is garbage. */
function firstSent(headers: Record<string, HeaderValue>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    if (value !== undefined) return typeof value === 'string' ? value.trim() : '';
  }
  return undefined;
}

/** A positive decimal as the hints' structured fields write it (`2`, `2.625`); anything else is ignored. */
function positiveDecimal(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,5}(\.\d{1,3})?$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/** The hints a request carries, parsed and sane; a garbage value is as if it was not sent. */
export function readClientHints(headers: Record<string, HeaderValue>): ClientHints {
  const dpr = positiveDecimal(firstSent(headers, HEADERS.dpr));
  const width = positiveDecimal(firstSent(headers, HEADERS.width));
  return {
    ...(dpr !== undefined ? { dpr: Math.min(DPR_RANGE.max, Math.max(DPR_RANGE.min, Math.round(dpr))) } : {}),
    ...(width !== undefined ? { width: Math.min(MAX_WIDTH, Math.ceil(width / WIDTH_STEP) * WIDTH_STEP) } : {}),
    saveData: firstSent(headers, HEADERS.saveData)?.toLowerCase() === 'on',
  };
}

export interface HintedTransforms {
  transforms: Partial<Transforms>;
  /** The hint headers that can change this URL's answer: its `Vary`, besides Accept. */
  vary: string[];
}

/**
 * Applies the hints to `resolved` (the preset with the URL's overrides). `explicit` is what
 * the URL itself set; `source` the original's displayed size. Sizes come out in physical
 * pixels without `dpr`, so two requests that make the same pixels share one variant key.
 */
export function applyClientHints(
  resolved: Partial<Transforms>,
  explicit: Partial<Transforms>,
  hints: ClientHints,
  source: Size,
): HintedTransforms {
  const vary: string[] = [];
  const { dpr: resolvedDpr, ...rest } = resolved;
  const next: Partial<Transforms> = { ...rest };
  const sized = resolved.width !== undefined || resolved.height !== undefined;

  const dprFree = explicit.dpr === undefined && sized;
  if (dprFree) vary.push(...HEADERS.dpr);
  const widthFree =
    explicit.width === undefined && explicit.height === undefined && !(resolved.height !== undefined && resolved.width === undefined);
  if (widthFree) vary.push(...HEADERS.width);

  const turned = resolved.rotate === 90 || resolved.rotate === 270;
  const sourceWidth = turned ? source.height : source.width;
  if (widthFree && hints.width !== undefined && (resolved.width !== undefined || hints.width < sourceWidth)) {
    const width = Math.min(hints.width, sourceWidth);
    if (resolved.height !== undefined && resolved.width !== undefined) {
      next.height = Math.max(1, Math.round((resolved.height * width) / resolved.width));
    }
    next.width = width;
  } else {
    const dpr = dprFree && hints.dpr !== undefined ? hints.dpr : (resolvedDpr ?? 1);
    if (next.width !== undefined) next.width *= dpr;
    if (next.height !== undefined) next.height *= dpr;
  }

  const qualityFree = explicit.quality === undefined && explicit.qualityMode === undefined;
  if (qualityFree) vary.push(...HEADERS.saveData);
  if (qualityFree && hints.saveData) {
    if (next.quality === undefined && next.qualityMode !== undefined) next.qualityMode = 'low';
    else next.quality = Math.min(next.quality ?? SAVE_DATA_QUALITY, SAVE_DATA_QUALITY);
  }
  return { transforms: next, vary };
}
