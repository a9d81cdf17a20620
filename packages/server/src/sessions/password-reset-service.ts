import {
  type CompletePasswordReset,
  LoupeError,
  PASSWORD_RESET_PAGE,
  type PasswordResetCompleted,
  type PasswordResetRequested,
  type RequestPasswordReset,
} from '@loupe/contract';
import type { EmailSender } from '../alerts/email-sender.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { PasswordResetTable } from '../database/schema.ts';
import type { KeysChanged } from '../identity/key-cache.ts';
import { hashPassword } from '../identity/password.ts';
import { newId } from '../ids.ts';
import { AttemptThrottle } from './attempt-throttle.ts';
import { passwordResetEmail } from './password-reset-email.ts';
import { PasswordResetStore } from './password-reset-store.ts';
// A reset token is a secret of a session token's strength (256 bits), stored the same way: its SHA-256 only.
import { generateSessionToken as generateResetToken, hashSessionToken as hashResetToken } from './session-token.ts';

/** A link works for an hour, as GitLab's and Grafana's do: long enough to read one's mail. */
export const RESET_LINK_LIFETIME_MS = 3_600_000;
/** Expired links are kept a day, so that late clicks hear "expired" rather than "unknown". */
const KEEP_EXPIRED_MS = 86_400_000;

export interface ResetLink {
  email: string;
  url: string;
  expiresAt: string;
}

export interface PasswordResetOptions {
  database: Database;
  /** LOUPE_PUBLIC_URL: the links point at its dashboard. */
  publicUrl: string;
  /** Null without LOUPE_SMTP_URL: requests are then refused, and the operator uses the CLI. */
  mailer: EmailSender | null;
  /** Told when the reset revoked keys, so cached ones stop working at once. */
  keysChanged: KeysChanged;
  /** A reset mail that did not go out (the requester's answer cannot say so without telling who has an account). */
  onMailFailed?: (failure: { email: string; error: unknown }) => void;
}

const noSuchLink = () => new LoupeError('not_found', { message: 'This reset link does not exist or was already used: ask for a new one.' });

/** 404 for a link that is unknown, used or replaced; 410 for one that ran out of time. */
function checkUsable(link: PasswordResetTable | undefined, at: string): asserts link is PasswordResetTable {
  if (!link || link.used_at !== null) throw noSuchLink();
  if (link.expires_at <= at) throw new LoupeError('reset_link_expired');
}

/**
 * Forgotten passwords (issue #22, point 1): a single-use link mailed to the account's
 * address is the one proof Loupe takes that someone reads that mailbox (an invite link is
 * not: its inviter holds it too). Setting a password with it ends every session and revokes
 * every API key of the account, so whoever held the account before, a squatter who made it
 * through his own invite included, is out everywhere; it signs nobody in.
 */
export class PasswordResetService {
  readonly #options: PasswordResetOptions;
  /** Per client: an address can mail at most 20 links an hour, whatever emails it names. */
  readonly #perClient = new AttemptThrottle({
    attempts: 20,
    windowMs: 3_600_000,
    refusal: 'Too many password reset requests from this address',
  });
  /** Per email: a mailbox gets at most 5 links an hour, however many clients ask. */
  readonly #perEmail = new AttemptThrottle({
    attempts: 5,
    windowMs: 3_600_000,
    refusal: 'Too many password reset requests for this email',
  });
  /**
   * Links are made one after another, after the answers: a request costs the same whether an
   * account has the email or not, and a request's link is made before a later one's.
   */
  #issuing: Promise<void> = Promise.resolve();
  readonly #sending = new Set<Promise<void>>();

  constructor(options: PasswordResetOptions) {
    this.#options = options;
  }

  /**
   * Mails a link if an account has the email. The answer is the same either way, and the link
   * is made and mailed after it, so neither its words nor its timing tell whether the account
   * exists (made before the answer, a link cost known emails 2 to 5 ms more, median).
   */
  async request(input: RequestPasswordReset, client: string): Promise<PasswordResetRequested> {
    const { mailer } = this.#options;
    if (!mailer) throw new LoupeError('smtp_not_configured');
    this.#perClient.begin(client);
    this.#perEmail.begin(input.email);
    // Only an account with a password has one to reset. The one without is the first owner
    // before the first run (owner@localhost), which the first-run screen claims, never a mail.
    // setImmediate: after the answer is written, not in the microtasks before it.
    const issued = this.#issuing
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => this.#issue(input.email, { needsPassword: true }));
    this.#issuing = issued.then(
      (link) => {
        if (link) this.#mail(mailer, link);
      },
      (error: unknown) => this.#options.onMailFailed?.({ email: input.email, error }),
    );
    return {
      message: `If an account has the email ${input.email}, a link to set its password is on its way there. It works once, for an hour.`,
    };
  }

  /** `loupe admin reset-password`: the same kind of link, for the operator to hand over when no mail goes out. */
  async issueLink(email: string): Promise<ResetLink> {
    const link = await this.#issue(email.toLowerCase(), { needsPassword: false });
    if (!link) throw new LoupeError('not_found', { message: `No account has the email ${email}.` });
    return link;
  }

  /** Sets the password of the link's account, and ends every way in it had. */
  async complete(input: CompletePasswordReset): Promise<PasswordResetCompleted> {
    const store = new PasswordResetStore(this.#options.database);
    const link = await store.findByTokenHash(hashResetToken(input.token));
    checkUsable(link, now());
    // Hashed before the transaction: scrypt takes ~0.1 s, too long to hold the write lock.
    const passwordHash = await hashPassword(input.password);
    const completed = await inTransaction(this.#options.database, async (transaction) => {
      const at = now();
      const inside = new PasswordResetStore(transaction);
      if (!(await inside.claim(link.id, at))) {
        checkUsable(await inside.findByTokenHash(link.token_hash), at);
        throw noSuchLink();
      }
      const ended = await inside.setPasswordEndingAccess(link.user_id, passwordHash);
      const email = await inside.emailOf(link.user_id);
      if (email === undefined) throw noSuchLink();
      return { email, ...ended };
    });
    this.#options.keysChanged();
    return completed;
  }

  /** Waits for the links still to make and the mails still going out. */
  async close(): Promise<void> {
    await this.#issuing;
    await Promise.all(this.#sending);
  }

  async #issue(email: string, options: { needsPassword: boolean }): Promise<ResetLink | undefined> {
    const store = new PasswordResetStore(this.#options.database);
    const createdAt = now();
    await store.deleteExpiredBefore(new Date(Date.parse(createdAt) - KEEP_EXPIRED_MS).toISOString());
    const user = await store.userByEmail(email);
    if (!user || (options.needsPassword && !user.hasPassword)) return undefined;
    const token = generateResetToken();
    const expiresAt = new Date(Date.parse(createdAt) + RESET_LINK_LIFETIME_MS).toISOString();
    const row = {
      id: newId(),
      user_id: user.id,
      token_hash: hashResetToken(token),
      created_at: createdAt,
      expires_at: expiresAt,
      used_at: null,
    };
    await inTransaction(this.#options.database, (transaction) => new PasswordResetStore(transaction).replace(row));
    return { email: user.email, url: `${this.#options.publicUrl}${PASSWORD_RESET_PAGE}#${token}`, expiresAt };
  }

  #mail(mailer: EmailSender, link: ResetLink): void {
    const sending = mailer
      .send({ to: [link.email], email: passwordResetEmail(link) })
      .then((result) => {
        if (result.kind !== 'delivered' || result.error !== null) this.#options.onMailFailed?.({ email: link.email, error: result.error });
      })
      .finally(() => this.#sending.delete(sending));
    this.#sending.add(sending);
  }
}
