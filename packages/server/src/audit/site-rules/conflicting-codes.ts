import { keptInstances } from '../finding-instances.ts';
import type { Finding } from '../rule.ts';

/** One hreflang annotation naming a page: `from` calls it the `code` version. */
export interface HreflangReference {
  from: string;
  /** Lower-cased, as stored. */
  code: string;
  /** The page annotates itself. */
  self: boolean;
}

/**
 * `hreflang/conflicting-codes` on one page (SEOnaut's "multiple language reference" and
 * "hreflang mismatching lang"): the site's pages, itself included, give it two different
 * languages, or the code it gives itself contradicts its `<html lang>`.
 *
 * Languages are compared by their primary subtag, so one URL may serve several regions of
 * a language (`en-gb` and `en-au`), and x-default, which names a fallback rather than a
 * language, is left out. A less specific `<html lang>` (`en` for `en-gb`) narrows nothing
 * and is no contradiction; two different regions or languages are.
 */
export function conflictingCodesFinding(pageLang: string | null, references: readonly HreflangReference[]): Finding | null {
  const coded = references.filter((reference) => reference.code !== 'x-default');
  const byLanguage = new Map<string, HreflangReference>();
  for (const reference of coded) {
    const language = primary(reference.code);
    const seen = byLanguage.get(language);
    // The page's own word on its language stands for that language.
    if (!seen || (reference.self && !seen.self)) byLanguage.set(language, reference);
  }
  const instances: string[] = [];
  const details: string[] = [];
  if (byLanguage.size >= 2) {
    // Its own word first, then the others in the order they were made.
    const named = [...byLanguage.values()].sort((a, b) => Number(b.self) - Number(a.self));
    instances.push(...named.map((reference) => `hreflang="${reference.code}" from ${reference.self ? 'itself' : reference.from}`));
    details.push(`referenced as ${named.map((reference) => reference.code).join(' and ')}`);
  }
  const lang = pageLang === null ? null : pageLang.trim().toLowerCase().replaceAll('_', '-');
  if (lang) {
    for (const own of coded.filter((reference) => reference.self && !compatible(reference.code, lang))) {
      instances.push(`hreflang="${own.code}" on itself, <html lang="${lang}">`);
      if (details.length < 2) details.push(`its own hreflang is ${own.code}, its <html lang> ${lang}`);
    }
  }
  if (instances.length === 0) return null;
  return {
    ruleId: 'hreflang/conflicting-codes',
    count: instances.length,
    ...keptInstances(instances),
    detail: details.join('; '),
  };
}

function primary(code: string): string {
  return code.split('-')[0] as string;
}

/** One tag is the other, or a more specific form of it (`en` and `en-gb`). */
function compatible(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
}
