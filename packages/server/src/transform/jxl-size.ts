/** Numerator/denominator of width over height for SizeHeader.ratio 1–7 (ISO/IEC 18181-1, D.2). */
const RATIOS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [12, 10],
  [4, 3],
  [3, 2],
  [16, 9],
  [5, 4],
  [2, 1],
];

/**
 * The size of a bare JPEG XL codestream (FF 0A, then SizeHeader), the form jxl-encoder.ts
 * writes: sharp's libvips cannot read JPEG XL, and `?meta` reports an output's size.
 */
export function jxlCodestreamSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 12 || data[0] !== 0xff || data[1] !== 0x0a) return undefined;
  let bit = 16;
  const bits = (count: number) => {
    let value = 0;
    for (let i = 0; i < count; i++, bit++) value += (((data[bit >> 3] as number) >> (bit & 7)) & 1) * 2 ** i;
    return value;
  };
  const u32 = () => 1 + bits([9, 13, 18, 30][bits(2)] as number);
  const div8 = bits(1) === 1;
  const height = div8 ? (1 + bits(5)) * 8 : u32();
  const ratio = bits(3);
  if (ratio === 0) return { width: div8 ? (1 + bits(5)) * 8 : u32(), height };
  const [numerator, denominator] = RATIOS[ratio - 1] as readonly [number, number];
  return { width: Math.floor((height * numerator) / denominator), height };
}
