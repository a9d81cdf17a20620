import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A count limit; null means unlimited. */
const Limit = z.number().int().min(0).nullable();

const PlanLimits = z.strictObject({
  pagesPerCrawl: z.number().int().min(1),
  /** null: unmetered, crawls reserve and charge no credits (the self-hosted plan). */
  monthlyCredits: z.number().int().min(0).nullable(),
  imageProjects: Limit,
  imagesPerProject: Limit,
  scheduledCrawls: z.boolean(),
  customRulePacks: z.boolean(),
});
export type PlanLimits = z.infer<typeof PlanLimits>;

const PlanTable = z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), PlanLimits).refine((t) => 'free' in t, {
  message: 'The plan table needs a "free" plan.',
});

/** The first workspace's plan when LOUPE_DEFAULT_PLAN is unset and the table has it. */
export const SELF_HOSTED_PLAN = 'self-hosted';

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
    return (Object.hasOwn(this.#table, plan) ? this.#table[plan] : this.#table.free) as PlanLimits;
  }

  names(): string[] {
    return Object.keys(this.#table);
  }

  /** Whether crawls on `plan` reserve and charge credits (and so can be refused with 402). */
  metered(plan: string): boolean {
    return this.limits(plan).monthlyCredits !== null;
  }

  /**
   * The plan new workspaces get unless told otherwise: LOUPE_DEFAULT_PLAN, which must be in the
   * table, else the unlimited self-hosted plan when the table has one, else free.
   */
  defaultPlan(requested: string | undefined): string {
    if (requested === undefined) return Object.hasOwn(this.#table, SELF_HOSTED_PLAN) ? SELF_HOSTED_PLAN : 'free';
    if (Object.hasOwn(this.#table, requested)) return requested;
    throw new Error(`LOUPE_DEFAULT_PLAN: no plan "${requested}" in the plan table; choose one of ${this.names().join(', ')}.`);
  }
}
