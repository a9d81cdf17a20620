const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (powers of 1024, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}
