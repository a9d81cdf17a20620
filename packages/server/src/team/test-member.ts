import { randomBytes } from 'node:crypto';
import type { Role } from '@loupe/contract';
import { addMember, issueKey } from '../provisioning/provisioning.ts';
import type { TestServer } from '../testing/test-server.ts';

export interface TestMember {
  userId: string;
  email: string;
  /** A key of theirs in the workspace, with every scope of the role. */
  key: string;
}

/** A new member of `workspaceId` with this role, and a key of theirs (for team tests that need the user id). */
export async function addTestMember(t: TestServer, workspaceId: string, role: Role): Promise<TestMember> {
  const email = `${role}-${randomBytes(5).toString('hex')}@example.test`;
  const userId = await addMember(t.server.database, { workspaceId, email, role });
  const { secret } = await issueKey(t.server.database, { workspaceId, userId, role, name: `${role} key` });
  return { userId, email, key: secret };
}
