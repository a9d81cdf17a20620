import assert from 'node:assert/strict';
import { type OperationDefinition, operations, type Role } from '@loupe/contract';
import type { z } from 'zod';
import { crawlToReport } from './test-crawls.ts';
import { readTestImage, uploadForm } from './test-images.ts';
import type { TestServer } from './test-server.ts';

/** A workspace full of real resources, so fuzzed paths reach real rows. */
export interface FuzzWorkspace {
  workspaceId: string;
  /** An owner key. */
  key: string;
  viewerKey: string;
  /** Path parameter → a real id of that kind (`imageProjectId`/`auditProjectId` stand for the two `projectId`s). */
  ids: Record<string, string>;
}

const registry = operations as readonly OperationDefinition[];

/** The real value of a path parameter of `operation` in `workspace`. */
export function realParam(operation: OperationDefinition, name: string, workspace: FuzzWorkspace): string {
  if (name === 'projectId') return workspace.ids[operation.path.startsWith('/api/images/') ? 'imageProjectId' : 'auditProjectId']!;
  if (name === 'token') return workspace.ids[operation.id === 'acceptInvite' ? 'inviteToken' : 'shareToken']!;
  return workspace.ids[name]!;
}

/**
 * Bodies the server accepted while the fixtures were made, by body schema: a known-good base
 * for fuzzing every operation that takes the same schema (createRulePack's serves
 * replaceRulePack too), where a sample made from the schema's shape alone would be refused.
 */
export type KnownBodies = Map<z.ZodType, unknown>;

/**
 * Two workspaces (the second is "another workspace" to the first) with an image project, a
 * preset, an image, an audit project crawled into a report with a share link, a rule pack, a
 * schedule, alert settings, a spare key, a member and an invite each.
 */
export async function createFuzzFixtures(
  t: TestServer,
  siteUrl: string,
): Promise<{ workspaces: [FuzzWorkspace, FuzzWorkspace]; known: KnownBodies }> {
  const known: KnownBodies = new Map();
  const populate = async (): Promise<FuzzWorkspace> => {
    const { workspaceId, key } = await t.createWorkspace({ plan: 'business' });
    const ids: Record<string, string> = {};
    const call = async (operationId: string, params: Record<string, string>, body?: unknown) => {
      const operation = registry.find((candidate) => candidate.id === operationId)!;
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
      const answer = await t.request(operation.method, path, { key, team: operation.api === 'workspace' ? workspaceId : null, body });
      assert.ok(answer.status < 300, `${operationId}: ${answer.status} ${JSON.stringify(answer.body)}`);
      if (operation.body && body !== undefined && !known.has(operation.body)) known.set(operation.body, body);
      return answer.body;
    };
    ids.imageProjectId = (await call('createImageProject', {}, { name: 'Fuzzed images' })).id;
    const projectId = ids.imageProjectId;
    ids.presetId = (await call('createPreset', { projectId }, { name: 'thumb', transforms: { width: 64, format: 'webp' } })).id;
    const form = uploadForm({ name: 'tiny.gif', data: await readTestImage('no_time_for_that_tiny.gif'), type: 'image/gif' });
    const uploaded = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    assert.equal(uploaded.status, 201);
    ids.imageId = ((await uploaded.json()) as { id: string }).id;
    await call('createImageUpload', { projectId }, { path: 'staged/next.gif' });
    await call('signUrl', { projectId }, { path: 'tiny.gif', params: { w: 32 }, expiresIn: 600 }).catch(() => undefined);

    ids.auditProjectId = (await call('createAuditProject', {}, { name: 'Fuzzed site', siteUrl })).id;
    const auditProjectId = ids.auditProjectId;
    const report = await crawlToReport(t, { url: siteUrl, projectId: auditProjectId, maxPages: 3 }, { key, team: workspaceId });
    known.set(registry.find((operation) => operation.id === 'startCrawl')!.body!, { url: siteUrl, projectId: auditProjectId, maxPages: 3 });
    ids.reportId = report.id;
    ids.crawlId = report.crawlId;
    // An issue of the report, for listIssueInstances.
    ids.ruleId = (report.issues as { ruleId: string }[])[0]!.ruleId;
    ids.pageId = (await t.request('GET', `/api/v1/reports/${report.id}/pages`, { key, team: workspaceId })).body[0].id;
    ids.shareToken = (await call('shareReport', { reportId: report.id })).token;
    const pack = {
      schema: 'loupe.rules/v1',
      name: 'fuzz',
      rules: [
        {
          id: 'content/has-heading',
          title: 'Has a heading',
          category: 'content',
          severity: 'notice',
          when: { type: 'selector', selector: 'h1', test: { op: 'exists' } },
          message: 'h1 on {{path}}',
        },
      ],
    };
    ids.packId = (
      await call('createRulePack', {}, { name: `Fuzzed pack ${workspaceId.slice(-6)}`, description: 'Made by the fuzz test.', pack })
    ).id;
    await call('validateRulePack', {}, { pack });
    await call('previewUnsavedRulePack', {}, { pack, projectId: auditProjectId });
    await call('updateAuditProject', { projectId: auditProjectId }, { name: 'Fuzzed site', rulePackIds: [ids.packId] });
    ids.scheduleId = (await call('createSchedule', { projectId: auditProjectId }, { cron: '0 3 * * *', timezone: 'UTC' })).id;
    await call('updateSchedule', { projectId: auditProjectId, scheduleId: ids.scheduleId }, { cron: '0 4 * * *' });
    await call('updateAlertSettings', { projectId: auditProjectId }, { enabled: false, conditions: { crawlFailed: true }, channels: [] });
    await call('buildSearchIndex', { projectId: auditProjectId });
    ids.keyId = (await call('createApiKey', {}, { name: 'Spare', scopes: ['images:read'] })).id;
    const viewerKey = await t.createMemberKey(workspaceId, 'viewer');
    await t.createMemberKey(workspaceId, 'member');
    const members = (await t.request('GET', '/api/v1/team/members', { key, team: workspaceId })).body as { userId: string; role: Role }[];
    ids.userId = members.find((member) => member.role === 'member')!.userId;
    const invite = await call('createInvite', {}, { email: `invitee-${workspaceId.slice(-6)}@example.test`, role: 'member' });
    ids.inviteId = invite.id;
    ids.inviteToken = invite.token;
    return { workspaceId, key, viewerKey, ids };
  };
  return { workspaces: [await populate(), await populate()], known };
}
