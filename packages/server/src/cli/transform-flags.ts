import { type TransformName, transformFields, transformShortNames } from '@loupe/contract';
import { keyValues } from './user-command.ts';

const longNames = new Map<string, TransformName>(
  Object.entries(transformShortNames).map(([long, short]) => [short as string, long as TransformName]),
);

/**
 * `-t name=value` pairs as a transforms object. Names may be long (`width`) or the CDN's
 * short ones (`w`); each value is read as whatever the field's schema accepts (a number,
 * a boolean, or text: `bg=000000` stays text). Unknown names and bad values are passed on
 * for the server's (or cdnUrl's) validation to name.
 */
export function parseTransforms(pairs: readonly string[] | undefined): Record<string, string | number | boolean> {
  const transforms: Record<string, string | number | boolean> = {};
  for (const [given, raw] of Object.entries(keyValues(pairs, 'transform'))) {
    const name = longNames.get(given) ?? given;
    const schema = Object.hasOwn(transformFields, name) ? transformFields[name as TransformName] : undefined;
    const candidates: (string | number | boolean)[] = [raw];
    if (raw.trim() !== '' && Number.isFinite(Number(raw))) candidates.unshift(Number(raw));
    if (raw === 'true' || raw === 'false') candidates.unshift(raw === 'true');
    transforms[name] = candidates.find((value) => schema?.safeParse(value).success) ?? candidates[0]!;
  }
  return transforms;
}

export const transformHelp = `name=value, repeatable: width=300, f=webp, fit=cover… (${Object.keys(transformFields).join(', ')})`;
