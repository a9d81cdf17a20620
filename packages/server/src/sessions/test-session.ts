import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CSRF_HEADER, type Role, type Session, sessionPaths } from '@loupe/contract';
import type { HttpAnswer, RequestOptions, TestServer } from '../testing/test-server.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

/** A browser's session in a test: its cookie, its CSRF token, and requests that send them. */
export interface TestSession {
  cookie: string;
  csrfToken: string;
  body: Session;
  /** Sends the cookie and no key; `csrf: false` leaves the CSRF header out. */
  request<T = any>(method: string, path: string, options?: RequestOptions & { csrf?: boolean | string }): Promise<HttpAnswer<T>>;
}

/** `name=value` of the answer's session cookie, as a browser would send it back. */
export function sessionCookieOf(answer: HttpAnswer): string {
  const setCookie = answer.headers.getSetCookie().find((line) => line.startsWith('loupe_session='));
  assert.ok(setCookie, `no session cookie in ${answer.status} ${JSON.stringify(answer.body)}`);
  return setCookie.split(';')[0] as string;
}

export function sessionFrom(t: TestServer, answer: HttpAnswer<Session>): TestSession {
  const cookie = sessionCookieOf(answer);
  const csrfToken = answer.body.csrfToken;
  return {
    cookie,
    csrfToken,
    body: answer.body,
    request(method, path, options = {}) {
      const { csrf = true, ...rest } = options;
      const headers: Record<string, string> = { cookie, ...rest.headers };
      if (csrf !== false) headers[CSRF_HEADER] = csrf === true ? csrfToken : csrf;
      return t.request(method, path, { team: null, ...rest, key: rest.key ?? null, headers });
    },
  };
}

export async function signIn(t: TestServer, email: string, password = TEST_PASSWORD): Promise<TestSession> {
  const answer = await t.request('POST', sessionPaths.session, { key: null, body: { email, password } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return sessionFrom(t, answer);
}

/** Completes the first run: the bootstrap owner gets an email and a password, and is signed in. */
export async function setUpOwner(t: TestServer, email = 'owner@example.test'): Promise<TestSession> {
  const answer = await t.request('POST', sessionPaths.setup, { key: null, body: { name: 'Olga Owner', email, password: TEST_PASSWORD } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return sessionFrom(t, answer);
}

/** A new user with a password, invited into `workspaceId` with this role through the real invite flow. */
export async function addPasswordMember(t: TestServer, workspaceId: string, ownerKey: string, role: Role): Promise<string> {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.test`;
  const invite = await t.request('POST', '/api/v1/team/invites', { key: ownerKey, team: workspaceId, body: { email, role } });
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  const accepted = await t.request('POST', `/api/v1/invites/${invite.body.token}/accept`, { key: null, body: { password: TEST_PASSWORD } });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return email;
}
