/** Why a link was not checked: it is kept and reported as such, never silently dropped. */
export const NOT_CHECKED = {
  overCap: 'not-checked: over the cap',
  timeBudget: 'not-checked: time budget',
  turnedOff: 'not-checked: turned off',
} as const;

/** Whether a link's recorded error says it was never asked (nothing is known of its target). */
export function notChecked(fetchError: string | null): boolean {
  return fetchError?.startsWith('not-checked:') ?? false;
}
