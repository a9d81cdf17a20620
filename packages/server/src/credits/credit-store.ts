import type { CreditEntry, Page } from '@loupe/contract';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { CreditLedgerTable } from '../database/schema.ts';
import { newId } from '../ids.ts';

type EntryKind = CreditEntry['kind'];

function toEntry(row: CreditLedgerTable): CreditEntry {
  return {
    id: row.id,
    kind: row.kind as EntryKind,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    crawlId: row.crawl_id,
    note: row.note,
    createdAt: row.created_at,
  };
}

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be a whole number ≥ ${min}, not ${value}`);
}

/**
 * The balance on `workspaces.credit_balance` and the ledger in `credit_ledger` (DESIGN.md §6):
 * the only module that reads or writes them. Every change of the balance and its ledger rows
 * happen in one transaction, and every row records the balance it left.
 */
export class CreditStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Adds credits; answers the balance after, or undefined when there is no such workspace. */
  async grant(workspaceId: string, amount: number, note: string | null): Promise<number | undefined> {
    assertCount('A grant', amount, 1);
    return inTransaction(this.#database, async (transaction) => {
      const updated = await transaction.db
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb('credit_balance', '+', amount) }))
        .where('id', '=', workspaceId)
        .returning('credit_balance')
        .executeTakeFirst();
      if (!updated) return undefined;
      const balance = Number(updated.credit_balance);
      await this.#append(transaction, workspaceId, { kind: 'grant', amount, balanceAfter: balance, crawlId: null, note });
      return balance;
    });
  }

  /**
   * A month's allowance, once per workspace and `period` (YYYY-MM): tops the balance up to
   * `allowance` (credits above it, say an operator's grant, stay; nothing rolls over beyond
   * it). Answers the credits granted (0 when the balance already covered it), or undefined
   * when the period had been given already or there is no such workspace. The period's row is
   * written first, under its primary key, so of two processes trying the same month one
   * grants and the other finds the row; the workspace's row is locked before its balance is
   * read, so a reservation cannot slip between the reading and the grant.
   */
  async topUp(workspaceId: string, period: string, allowance: number, note: string): Promise<number | undefined> {
    assertCount('An allowance', allowance, 0);
    return inTransaction(this.#database, async (transaction) => {
      const claimed = await transaction.db
        .insertInto('credit_allowances')
        .values({ workspace_id: workspaceId, period, granted: 0, created_at: now() })
        .onConflict((conflict) => conflict.columns(['workspace_id', 'period']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
      const locked = await transaction.db
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb.ref('credit_balance') }))
        .where('id', '=', workspaceId)
        .returning('credit_balance')
        .executeTakeFirst();
      if (!locked) return undefined;
      const amount = Math.max(0, allowance - Number(locked.credit_balance));
      if (amount > 0) await new CreditStore(transaction).grant(workspaceId, amount, note);
      await transaction.db
        .updateTable('credit_allowances')
        .set({ granted: amount })
        .where('workspace_id', '=', workspaceId)
        .where('period', '=', period)
        .execute();
      return amount;
    });
  }

  /** Workspaces not yet given `period`'s allowance, with their plan, `limit` at a time. */
  async withoutAllowance(period: string, limit: number): Promise<{ id: string; plan: string }[]> {
    return this.#database.db
      .selectFrom('workspaces')
      .select(['id', 'plan'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('credit_allowances')
              .select('period')
              .whereRef('credit_allowances.workspace_id', '=', 'workspaces.id')
              .where('period', '=', period),
          ),
        ),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Holds `amount` credits for a crawl if the balance covers them; false (and no change) if
   * not. The check and the subtraction are one conditional UPDATE, so concurrent reservations
   * cannot overspend: PostgreSQL re-checks the condition on the row a concurrent writer left,
   * and SQLite runs one writer at a time.
   */
  async reserve(workspaceId: string, amount: number, crawlId: string): Promise<boolean> {
    assertCount('A reservation', amount, 1);
    return inTransaction(this.#database, async (transaction) => {
      const updated = await transaction.db
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb('credit_balance', '-', amount) }))
        .where('id', '=', workspaceId)
        .where('credit_balance', '>=', amount)
        .returning('credit_balance')
        .executeTakeFirst();
      if (!updated) return false;
      const balanceAfter = Number(updated.credit_balance);
      await this.#append(transaction, workspaceId, { kind: 'reserve', amount: -amount, balanceAfter, crawlId, note: null });
      return true;
    });
  }

  /**
   * Ends a crawl's hold: releases the `reserved` credits and charges the `used` ones, as a
   * `release` and a `charge` row and one balance update. Answers false, changing nothing,
   * when the crawl was settled before.
   *
   * Settling once is guarded here, not by the caller: the `release` row is the mark. The
   * transaction first takes the workspace row's write lock (a no-op UPDATE), then looks for
   * that row, so a second settle — a crash-resumed worker, or two racing — waits for the
   * first to commit and then sees its release. The caller needs no flag of its own.
   */
  async settle(workspaceId: string, crawlId: string, reserved: number, used: number): Promise<boolean> {
    assertCount('used', used, 0);
    if (used > reserved) throw new RangeError(`crawl ${crawlId} used ${used} credits of ${reserved} reserved`);
    return inTransaction(this.#database, async (transaction) => {
      await transaction.db
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb.ref('credit_balance') }))
        .where('id', '=', workspaceId)
        .execute();
      const rows = await transaction.db
        .selectFrom('credit_ledger')
        .select(['kind', 'amount'])
        .where('workspace_id', '=', workspaceId)
        .where('crawl_id', '=', crawlId)
        .where('kind', 'in', ['reserve', 'release'])
        .execute();
      if (rows.some((row) => row.kind === 'release')) return false;
      const held = -rows.reduce((sum, row) => sum + Number(row.amount), 0);
      // Releasing more than was held would mint credits: a caller bug, never a user's doing.
      if (held !== reserved) throw new Error(`crawl ${crawlId} holds ${held} credits, not the ${reserved} to release`);

      const updated = await transaction.db
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb('credit_balance', '+', reserved - used) }))
        .where('id', '=', workspaceId)
        .returning('credit_balance')
        .executeTakeFirstOrThrow();
      const balanceAfter = Number(updated.credit_balance);
      await this.#append(transaction, workspaceId, {
        kind: 'release',
        amount: reserved,
        balanceAfter: balanceAfter + used,
        crawlId,
        note: null,
      });
      await this.#append(transaction, workspaceId, { kind: 'charge', amount: -used, balanceAfter, crawlId, note: null });
      return true;
    });
  }

  /** Credits available now (holds already taken out); undefined for an unknown workspace. */
  async balance(workspaceId: string): Promise<number | undefined> {
    const row = await this.#database.db.selectFrom('workspaces').select('credit_balance').where('id', '=', workspaceId).executeTakeFirst();
    return row && Number(row.credit_balance);
  }

  /** Balances of every workspace, by id (for the operator's list). */
  async balances(): Promise<Map<string, number>> {
    const rows = await this.#database.db.selectFrom('workspaces').select(['id', 'credit_balance']).execute();
    return new Map(rows.map((row) => [row.id, Number(row.credit_balance)]));
  }

  /** Credits held by crawls not yet settled: reservations without a release. */
  async reservedTotal(workspaceId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('credit_ledger as hold')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('hold.amount'), eb.lit(0)).as('held'))
      .where('hold.workspace_id', '=', workspaceId)
      .where('hold.kind', '=', 'reserve')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('credit_ledger as released')
              .select('released.id')
              .whereRef('released.workspace_id', '=', 'hold.workspace_id')
              .whereRef('released.crawl_id', '=', 'hold.crawl_id')
              .where('released.kind', '=', 'release'),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    return -Number(row.held);
  }

  /** The ledger oldest first, one keyset page at a time. */
  async ledger(workspaceId: string, page: { limit: number; cursor?: string }): Promise<Page<CreditEntry>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toEntry);
  }

  async #append(
    transaction: Database,
    workspaceId: string,
    entry: { kind: EntryKind; amount: number; balanceAfter: number; crawlId: string | null; note: string | null },
  ): Promise<void> {
    await transaction.db
      .insertInto('credit_ledger')
      .values({
        id: newId(),
        workspace_id: workspaceId,
        kind: entry.kind,
        amount: entry.amount,
        balance_after: entry.balanceAfter,
        crawl_id: entry.crawlId,
        note: entry.note,
        created_at: now(),
      })
      .execute();
  }
}
