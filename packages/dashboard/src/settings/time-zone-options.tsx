/**
 * The browser's IANA time zones (`Intl.supportedValuesOf`), grouped by region for a long
 * select, with UTC first (browsers leave it out of the list) and the stored value kept even
 * when this browser does not know it, so saving the form never changes it unasked.
 */
export function TimeZoneOptions({ current }: { current: string }) {
  const zones = new Set(['UTC', ...supportedTimeZones()]);
  zones.add(current);
  const groups = new Map<string, string[]>();
  for (const zone of zones) {
    const region = zone.includes('/') ? (zone.split('/')[0] as string) : 'Other';
    groups.set(region, [...(groups.get(region) ?? []), zone]);
  }
  const regions = [...groups.keys()].sort((a, b) => (a === 'Other' ? -1 : b === 'Other' ? 1 : a.localeCompare(b)));
  return regions.map((region) => (
    <optgroup key={region} label={region}>
      {(groups.get(region) ?? []).sort().map((zone) => (
        <option key={zone} value={zone}>
          {zone.replaceAll('_', ' ')}
        </option>
      ))}
    </optgroup>
  ));
}

function supportedTimeZones(): string[] {
  // Every browser the dashboard targets (ES2022) has it; the guard keeps an old one on UTC alone.
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}
