import { LoupeError, type Setup, type SetupState } from '@loupe/contract';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { hashPassword } from '../identity/password.ts';
import { SetupStore } from './setup-store.ts';

/**
 * The dashboard's first run. The first start creates the workspace "Default" with an owner
 * who has an API key but no password (identity/bootstrap.ts); until someone has a password,
 * the first-run screen gives that owner their email, name and password. After that it
 * answers 409 already_set_up, for good: the window in which anyone who reaches the server can
 * claim the owner closes with the first password, whoever set it (an invited member too).
 */
export class SetupService {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async state(): Promise<SetupState> {
    return { needed: !(await new SetupStore(this.#database).anyoneHasPassword()) };
  }

  /** Sets up the owner; answers their user id, to sign them in. */
  async complete(input: Setup): Promise<{ userId: string }> {
    if (!(await this.state()).needed) throw new LoupeError('already_set_up');
    // Hashed before the transaction: scrypt's ~120 ms need not hold a write lock.
    const passwordHash = await hashPassword(input.password);
    return inTransaction(this.#database, async (transaction) => {
      const store = new SetupStore(transaction);
      const owner = await store.firstOwner();
      if (!owner || (await store.anyoneHasPassword())) throw new LoupeError('already_set_up');
      if (await store.emailTakenByOther(input.email, owner.userId)) {
        throw new LoupeError('validation_failed', {
          message: 'Another account has this email.',
          details: { fieldErrors: { email: ['Another account has this email.'] }, formErrors: [] },
        });
      }
      if (!(await store.claimOwner(owner.userId, { email: input.email, name: input.name, passwordHash }))) {
        throw new LoupeError('already_set_up');
      }
      if (input.workspaceName !== undefined) await store.renameWorkspace(owner.workspaceId, input.workspaceName, now());
      return { userId: owner.userId };
    });
  }
}
