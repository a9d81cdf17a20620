import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('singleton_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('finished_at', 'text').execute();
  // At most one live job per (name, key): the database refuses the second, so two processes
  // sending the same key at once cannot both queue one. Finished jobs keep their key.
  await db.schema
    .createIndex('jobs_singleton')
    .unique()
    .on('jobs')
    .columns(['name', 'singleton_key'])
    .where(sql.ref('state'), 'in', ['queued', 'running'])
    .execute();
}
