import { randomBytes } from 'node:crypto';
import {
  type AlertChannel,
  type AlertDelivery,
  type AlertDeliveryStatus,
  type AlertSettings,
  addFieldError,
  LoupeError,
  type Page,
  type UpdateAlertSettings,
  type ValidationDetails,
} from '@loupe/contract';
import type { z } from 'zod';
import type { AuditProjectService } from '../audit-projects/audit-project-service.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { newId } from '../ids.ts';
import { assertPublicHost } from '../outbound/address-guard.ts';
import type { Principal } from '../principal.ts';
import { AlertDeliveryStore, toAlertDelivery } from './alert-delivery-store.ts';
import { AlertSettingsStore, type StoredAlertSettings, type StoredChannel } from './alert-settings-store.ts';
import type { AlertTrigger } from './alert-trigger.ts';

const GENERATED_SECRET_PREFIX = 'whsec_';

/** Enough of a secret to tell two apart, never enough to matter: the prefix of a generated one and four characters. */
export function secretPreview(secret: string): string {
  const shown = secret.startsWith(GENERATED_SECRET_PREFIX) ? GENERATED_SECRET_PREFIX.length + 4 : 4;
  return `${secret.slice(0, shown)}…`;
}

function toSettings(projectId: string, stored: StoredAlertSettings, generated: ReadonlyMap<string, string> = new Map()): AlertSettings {
  return {
    projectId,
    enabled: stored.enabled,
    conditions: stored.conditions,
    channels: stored.channels.map((channel): AlertChannel => {
      if (channel.type === 'email') return { id: channel.id, type: 'email', to: channel.to };
      const secret = generated.get(channel.id);
      return { id: channel.id, type: 'webhook', url: channel.url, secretPreview: secretPreview(channel.secret), ...(secret && { secret }) };
    }),
    updatedAt: stored.updatedAt,
  };
}

/** Alert settings, test alerts and the delivery log of audit projects (DESIGN.md §8). */
export class AlertService {
  readonly #database: Database;
  readonly #projects: AuditProjectService;
  readonly #trigger: AlertTrigger;
  readonly #allowPrivate: boolean;

  constructor(options: { database: Database; projects: AuditProjectService; trigger: AlertTrigger; allowPrivate: boolean }) {
    this.#database = options.database;
    this.#projects = options.projects;
    this.#trigger = options.trigger;
    this.#allowPrivate = options.allowPrivate;
  }

  async get(principal: Principal, projectId: string): Promise<AlertSettings> {
    const project = await this.#projects.require(principal, projectId);
    return toSettings(project.id, await new AlertSettingsStore(this.#database).load(project.id));
  }

  /**
   * Replaces the settings. A channel sent with an id must be one of the current settings, of
   * the same type: it keeps its id (the delivery log's link to it) and, unless a new one is
   * given, its secret. A new webhook without a secret gets one, returned in this answer only.
   */
  async update(principal: Principal, projectId: string, input: z.output<typeof UpdateAlertSettings>): Promise<AlertSettings> {
    const project = await this.#projects.require(principal, projectId);
    return inTransaction(this.#database, async (transaction) => {
      const store = new AlertSettingsStore(transaction);
      const current = new Map((await store.load(project.id)).channels.map((channel) => [channel.id, channel]));
      const details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
      const generated = new Map<string, string>();
      const channels = input.channels.map((channel, index): StoredChannel => {
        const kept = channel.id === undefined ? undefined : current.get(channel.id);
        if (channel.id !== undefined && kept?.type !== channel.type) {
          addFieldError(details, `channels.${index}.id`, `No ${channel.type} channel with this id in the current settings.`);
        }
        const id = kept?.id ?? newId();
        if (channel.type === 'email') return { id, type: 'email', to: channel.to };
        if (!this.#allowPrivate && !isPublicTarget(channel.url)) {
          addFieldError(details, `channels.${index}.url`, 'This address is not public; Loupe does not send to it.');
        }
        let secret = channel.secret ?? (kept?.type === 'webhook' ? kept.secret : undefined);
        if (secret === undefined) {
          secret = `${GENERATED_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
          generated.set(id, secret);
        }
        return { id, type: 'webhook', url: channel.url, secret };
      });
      if (Object.keys(details.fieldErrors).length > 0) throw new LoupeError('validation_failed', { details });
      const at = now();
      const saved = { enabled: input.enabled, conditions: input.conditions, channels };
      await store.save(project.id, principal.workspaceId, saved, at);
      return toSettings(project.id, { ...saved, updatedAt: at }, generated);
    });
  }

  async sendTest(principal: Principal, projectId: string): Promise<AlertDelivery[]> {
    const project = await this.#projects.require(principal, projectId);
    const rows = await this.#trigger.sendTest(principal.workspaceId, project.id);
    return rows.map(toAlertDelivery);
  }

  async deliveries(
    principal: Principal,
    projectId: string,
    query: { status?: AlertDeliveryStatus; limit: number; cursor?: string },
  ): Promise<Page<AlertDelivery>> {
    const project = await this.#projects.require(principal, projectId);
    return new AlertDeliveryStore(this.#database).list(project.id, query.status, query);
  }
}

/** Literal private addresses are refused up front; names are checked when a delivery connects. */
function isPublicTarget(url: string): boolean {
  try {
    assertPublicHost(new URL(url).hostname);
    return true;
  } catch {
    return false;
  }
}
