import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import pg from 'pg';
import { FIXED_QUERY_MARK } from './compiled-query.ts';
import type { Database } from './database.ts';
import type { Schema } from './schema.ts';

const PG_UNIQUE_VIOLATION = '23505';
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Counts and sums come back from PostgreSQL as int8/numeric strings; every value we store
 * fits in a double, so they are read as numbers, on this pool only (not pg's global parsers).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  url: string;
  /** A schema to work in instead of `public` (tests use one per server). */
  schema?: string;
  poolSize?: number;
}

/** Names of the fixed queries' statements: a few dozen texts in all, so kept for good. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `loupe_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** What PostgreSQL answers when a table changed under a statement prepared before (a column added to a `SELECT *`). */
const PLAN_CHANGED = { code: '0A000', message: 'cached plan must not change result type' };

/**
 * A fixed query as a named prepared statement. A statement prepared before another process
 * migrated the schema (a rolling upgrade) can fail once its table changed; it is then dropped
 * from the connection, where node-pg also forgets it (its record of the statements it parsed
 * there), and prepared again. Inside a transaction, which the failure aborts, it fails as it is.
 */
async function runPrepared(client: pg.PoolClient, text: string, values: unknown[] | undefined) {
  const name = statementName(text);
  try {
    return await client.query({ name, text, values });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (code !== PLAN_CHANGED.code || message !== PLAN_CHANGED.message) throw error;
    try {
      await client.query(`DEALLOCATE ${name}`);
    } catch {
      throw error;
    }
    const { connection } = client as unknown as {
      connection: Record<'parsedStatements' | 'submittedNamedStatements', Record<string, string>>;
    };
    delete connection.parsedStatements[name];
    delete connection.submittedNamedStatements[name];
    return client.query({ name, text, values });
  }
}

/**
 * The pool as Kysely takes it, its clients running a fixed query (compiled-query.ts) as a named
 * prepared statement: node-pg parses it once per connection, and PostgreSQL plans it once it
 * has seen that a generic plan costs no more than planning each run.
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      // Kysely sends SQL text with its values, or a cursor (a stream of rows) as it is.
      const query = (statement: string | pg.Submittable, values?: unknown[]) =>
        typeof statement !== 'string'
          ? client.query(statement)
          : statement.startsWith(FIXED_QUERY_MARK)
            ? runPrepared(client, statement, values)
            : client.query(statement, values);
      // The same calls as node-pg's overloads take; their declared types differ.
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

export function openPostgresDatabase(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return {
    kind: 'postgres',
    db,
    migrationSchema: options.schema ?? 'public',
    read: async (query) => (await db.executeQuery(query)).rows,
    isUniqueViolation: (error) => (error as { code?: string } | null)?.code === PG_UNIQUE_VIOLATION,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
