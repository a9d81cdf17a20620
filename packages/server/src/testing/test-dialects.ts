/**
 * The databases a test suite runs on: SQLite always, PostgreSQL too when TEST_DATABASE_URL
 * is set (STYLE.md: every data-layer test runs on both, in one loop over the dialects).
 * LOUPE_TEST_DIALECTS=postgres narrows a run to one of them.
 */
export type Dialect = 'sqlite' | 'postgres';

export function testDialects(): Dialect[] {
  const wanted = process.env.LOUPE_TEST_DIALECTS?.split(',').map((d) => d.trim());
  const available: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  if (!wanted) return available;
  const unknown = wanted.filter((d) => !available.includes(d as Dialect));
  if (unknown.length > 0) {
    throw new Error(`LOUPE_TEST_DIALECTS asks for ${unknown.join(', ')}; set TEST_DATABASE_URL for postgres`);
  }
  return wanted as Dialect[];
}
