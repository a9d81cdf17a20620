import type { ImageFact, PageFacts } from '../../page-facts/page-facts.ts';
import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { share, verdict } from './verdict.ts';

/**
 * Images a visitor gets: noscript fallbacks repeat a lazy-loaded image, so counting them
 * would report it twice.
 */
function shownImages(facts: PageFacts): ImageFact[] {
  return facts.images.filter((image) => !image.inNoscript);
}

function describe(image: ImageFact): string {
  return image.src === null || image.src.trim() === '' ? '<img> without src' : image.src;
}

export const imageRules: readonly PageRule[] = [
  {
    id: 'images/alt-missing',
    category: 'images',
    severity: 'warning',
    scope: 'page',
    title: 'Images have no alt attribute',
    explanation:
      'Alt text is what screen readers read out and what search engines use to understand an image. Without the attribute, screen readers may read the file name instead.',
    fix: 'Add an alt attribute to every <img>: a short description of what the image shows, or alt="" for purely decorative images.',
    check: htmlCheck((facts) => {
      const images = shownImages(facts);
      // role=presentation/none marks an image decorative, as alt="" does.
      const missing = images.filter((image) => image.alt === null && image.role !== 'presentation' && image.role !== 'none');
      if (missing.length === 0) return null;
      const decorative = images.filter((image) => image.alt === '').length;
      const note = decorative > 0 ? `; ${decorative} more with alt="" (decorative?)` : '';
      return verdict(missing.map(describe), { detail: `${share(missing.length, images.length, 'image')}${note}` });
    }),
  },
  {
    id: 'images/dimensions-missing',
    category: 'images',
    severity: 'notice',
    scope: 'page',
    title: 'Images have no width or height',
    explanation:
      'Without width and height, the browser cannot reserve space for an image before it loads, so the text jumps when it appears. That layout shift annoys readers and counts against the page in Core Web Vitals.',
    fix: "Add width and height attributes with the image's intrinsic size to every <img>; CSS can still scale it (height: auto keeps the proportions).",
    check: htmlCheck((facts) => {
      const images = shownImages(facts);
      const missing = images.filter((image) => !image.width?.trim() || !image.height?.trim());
      return verdict(missing.map(describe), { detail: share(missing.length, images.length, 'image') });
    }),
  },
];
