/**
 * The name an ICC profile gives itself (its `desc` tag, ICC.1 §9.2.41), e.g. "Display P3":
 * a v2 `desc` (ASCII) or a v4 `mluc` (UTF-16BE, first record). Null when it has none or the
 * profile is damaged; sharp reports the profile's bytes, not its name.
 */
export function iccDescription(profile: Buffer): string | null {
  try {
    const tagCount = profile.readUInt32BE(128);
    for (let tag = 0; tag < Math.min(tagCount, 100); tag++) {
      const entry = 132 + tag * 12;
      if (profile.toString('latin1', entry, entry + 4) !== 'desc') continue;
      const at = profile.readUInt32BE(entry + 4);
      const type = profile.toString('latin1', at, at + 4);
      if (type === 'desc') {
        const length = profile.readUInt32BE(at + 8);
        return clean(profile.toString('latin1', at + 12, at + 12 + Math.min(length, 256)));
      }
      if (type === 'mluc' && profile.readUInt32BE(at + 8) > 0) {
        const length = profile.readUInt32BE(at + 20);
        const start = at + profile.readUInt32BE(at + 24);
        return clean(
          Buffer.from(profile.subarray(start, start + Math.min(length, 512)))
            .swap16()
            .toString('utf16le'),
        );
      }
      return null;
    }
    return null;
  } catch {
    return null;
  }
}

const clean = (text: string) => text.replace(/\0+$/, '').trim() || null;
