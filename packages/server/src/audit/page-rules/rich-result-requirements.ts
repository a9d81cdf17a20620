/**
 * Properties Google's rich-result documentation (developers.google.com/search/docs/appearance/
 * structured-data) lists as required and as recommended, for the ten schema.org types the
 * catalog checks. A nested array is "one of these": a Product needs offers, review or
 * aggregateRating, any one of them. Kept short on purpose: the properties that most often
 * decide whether a rich result appears, not every optional field.
 */
export interface RichResultRequirements {
  required: readonly (string | readonly string[])[];
  recommended: readonly string[];
}

export const richResultRequirements: Readonly<Record<string, RichResultRequirements>> = {
  Product: {
    required: ['name', ['offers', 'review', 'aggregateRating']],
    recommended: ['image', 'description', 'brand', 'sku'],
  },
  Offer: {
    required: [['price', 'priceSpecification']],
    recommended: ['priceCurrency', 'availability', 'priceValidUntil'],
  },
  // Google lists no required Article properties; all of these are recommended.
  Article: {
    required: [],
    recommended: ['headline', 'image', 'datePublished', 'dateModified', 'author'],
  },
  BreadcrumbList: {
    required: ['itemListElement'],
    recommended: [],
  },
  FAQPage: {
    required: ['mainEntity'],
    recommended: [],
  },
  Event: {
    required: ['name', 'startDate', 'location'],
    recommended: ['description', 'endDate', 'eventStatus', 'image', 'offers', 'organizer', 'performer'],
  },
  Recipe: {
    required: ['name', 'image'],
    recommended: [
      'author',
      'description',
      'recipeIngredient',
      'recipeInstructions',
      'recipeYield',
      'totalTime',
      'nutrition',
      'aggregateRating',
    ],
  },
  JobPosting: {
    // A remote job may give applicantLocationRequirements instead of jobLocation.
    required: ['title', 'description', 'datePosted', 'hiringOrganization', ['jobLocation', 'applicantLocationRequirements']],
    recommended: ['validThrough', 'employmentType', 'baseSalary', 'identifier', 'directApply'],
  },
  LocalBusiness: {
    required: ['name', 'address'],
    recommended: ['telephone', 'url', 'geo', 'openingHoursSpecification', 'priceRange', 'image'],
  },
  VideoObject: {
    required: ['name', 'thumbnailUrl', 'uploadDate'],
    recommended: ['description', 'contentUrl', 'embedUrl', 'duration'],
  },
};

/** Subtypes Google documents under the same rich result. */
const ALIASES: Readonly<Record<string, string>> = { NewsArticle: 'Article', BlogPosting: 'Article' };

/** The requirements for a JSON-LD `@type` (`Product`, `schema:Product`, `https://schema.org/Product`), if it is one we check. */
export function requirementsOf(type: string): { type: string; requirements: RichResultRequirements } | null {
  const local = type.trim().replace(/^(?:https?:\/\/schema\.org\/|schema:)/, '');
  const name = ALIASES[local] ?? local;
  const requirements = Object.hasOwn(richResultRequirements, name) ? richResultRequirements[name] : undefined;
  return requirements === undefined ? null : { type: name, requirements };
}
