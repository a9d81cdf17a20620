import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A count limit; null means unlimited. */
const Limit = z.number().int().min(0).nullable();

const PlanLimits = z.strictObject({
  pagesPerCrawl: z.number().int().min(1),
  monthlyCredits: z.number().int().min(0),
  imageProjects: Limit,
  imagesPerProject: Limit,
  scheduledCrawls: z.boolean(),
  customRulePacks: z.boolean(),
});
export type PlanLimits = z.infer<typeof PlanLimits>;

const PlanTable = z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), PlanLimits).refine((t) => 'free' in t, {
  message: 'The plan table needs a "free" plan.',
});

/**
 * The plans of DESIGN.md §6. They are configuration, not code: `plans.json` beside this file
 * by default, or the file named by LOUPE_PLANS_FILE.
 */
export class Plans {
  readonly #table: Record<string, PlanLimits>;

  constructor(table: Record<string, PlanLimits>) {
    this.#table = table;
  }

  static load(file: string | URL = new URL('./plans.json', import.meta.url)): Plans {
    const parsed = PlanTable.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`Invalid plan table ${String(file)}: ${parsed.error.message}`);
    return new Plans(parsed.data);
  }

  /** Limits of `plan`; an unknown plan name (say, one removed from the file) gets the free plan's. */
  limits(plan: string): PlanLimits {
    return this.#table[plan] ?? (this.#table.free as PlanLimits);
  }

  names(): string[] {
    return Object.keys(this.#table);
  }
}
