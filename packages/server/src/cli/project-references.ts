import { Id, LoupeError } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';

/**
 * Projects as a person names them on the command line: an id, or what they see in the
 * dashboard and in URLs (an image project's slug, an audit project's name). An id is used
 * as it is, so the server's own 404 answers for an unknown one.
 */

const isId = (reference: string) => Id.safeParse(reference).success;

/** The id of an image project given by id or slug. */
export async function imageProjectId(client: LoupeClient, reference: string): Promise<string> {
  if (isId(reference)) return reference;
  for await (const project of client.all.listImageProjects({ limit: 100 })) {
    if (project.slug === reference) return project.id;
  }
  throw new LoupeError('not_found', {
    message: `No image project with the id or slug "${reference}": loupe projects list shows them.`,
  });
}

/** The slug of an image project given by id or slug (a slug is taken as it is, needing no key). */
export async function imageProjectSlug(client: () => LoupeClient, reference: string): Promise<string> {
  if (!isId(reference)) return reference;
  return (await client().getImageProject({ projectId: reference })).slug;
}

/** The id of an audit project given by id or name; a name two projects share is refused with their ids. */
export async function auditProjectId(client: LoupeClient, reference: string): Promise<string> {
  if (isId(reference)) return reference;
  const matches: string[] = [];
  for await (const project of client.all.listAuditProjects({ limit: 100 })) {
    if (project.name === reference) matches.push(project.id);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new LoupeError('not_found', {
      message: `No audit project with the id or name "${reference}": loupe audit-projects list shows them.`,
    });
  }
  const message = `${matches.length} audit projects are named "${reference}": name one by its id (${matches.join(', ')}).`;
  throw new LoupeError('validation_failed', { message, details: { fieldErrors: { project: [message] }, formErrors: [] } });
}
