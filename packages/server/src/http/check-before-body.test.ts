import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { addTestMember } from '../team/test-member.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** The status line and headers of an answer, as read off the socket. */
interface EarlyAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Far more than is ever sent, and under every body limit: a server that reads first waits for the rest. */
const ANNOUNCED_BYTES = 1_000_000;
/** Sockets still open when a server never answered (the code before the fix): closed at the end. */
const sockets = new Set<Socket>();

/**
 * Sends the request line, the headers (announcing a 1 MB body unless told) and 1 KB of the body, then
 * keeps the socket open without sending more. Resolves with the answer: only a server that
 * answers before reading the body can give one.
 */
function sendUnfinished(
  t: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  announced = ANNOUNCED_BYTES,
): Promise<EarlyAnswer> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    sockets.add(socket);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
      const fields = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(fields.get('content-length') ?? 0);
      if (received.length < end + 4 + length) return;
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers: fields, body: received.slice(end + 4, end + 4 + length) });
    });
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-length': String(announced), ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n${'{'.padEnd(1024, ' ')}`);
  });
}

function assertRefused(answer: EarlyAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.body);
  assert.equal(JSON.parse(answer.body).code, code);
  // The rest of the body is not wanted: the connection ends with the answer.
  assert.equal(answer.headers.get('connection'), 'close');
}

const json = { 'content-type': 'application/json' };
const UNKNOWN_KEY = 'Bearer loupe_thisKeyWasNeverIssued0000000000000000';
/** Each case waits for an answer that the code before issue #22's fix never gave. */
const EARLY = { timeout: 20_000 };

describe('refusals before the body is read (issue #22, point 4)', () => {
  let t: TestServer;
  let projectId: string;

  before(async () => {
    t = await startTestServer('sqlite');
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Early answers' } })).body.id;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await t.close();
  });

  it('answers 401 to a JSON operation without a key while its body is still coming', EARLY, async () => {
    assertRefused(await sendUnfinished(t, 'POST', '/api/images/projects', json), 401, 'unauthorized');
  });

  it('answers 401 to a workspace operation with an unknown key while its body is still coming', EARLY, async () => {
    const headers = { ...json, authorization: UNKNOWN_KEY, 'x-service-team': t.owner.workspaceId };
    assertRefused(await sendUnfinished(t, 'POST', '/api/v1/team/invites', headers), 401, 'unauthorized');
  });

  it("answers 403 to a viewer's key on an operation that needs a scope it lacks, before its body", EARLY, async () => {
    const viewer = await addTestMember(t, t.owner.workspaceId, 'viewer');
    const headers = { ...json, authorization: `Bearer ${viewer.key}`, 'x-service-team': t.owner.workspaceId };
    assertRefused(await sendUnfinished(t, 'POST', '/api/v1/team/invites', headers), 403, 'forbidden');
  });

  it('answers 401 to a multipart image upload with an unknown key before its file is read', EARLY, async () => {
    const headers = { 'content-type': 'multipart/form-data; boundary=x', authorization: UNKNOWN_KEY };
    assertRefused(await sendUnfinished(t, 'POST', `/api/images/projects/${projectId}/images`, headers), 401, 'unauthorized');
  });

  it('answers 404 to a PUT to an upload URL whose token was never issued, before its body', EARLY, async () => {
    const headers = { 'content-type': 'application/octet-stream' };
    assertRefused(await sendUnfinished(t, 'PUT', `/api/images/uploads/${'x'.repeat(43)}`, headers), 404, 'not_found');
  });

  it('answers 410 upload_expired to a PUT to an expired upload URL, before its body', EARLY, async () => {
    const slot = await t.request('POST', `/api/images/projects/${projectId}/images/upload`, { body: { path: 'late.jpg' } });
    assert.equal(slot.status, 201, JSON.stringify(slot.body));
    const past = new Date(Date.now() - 1000).toISOString();
    await t.server.database.db.updateTable('pending_uploads').set({ expires_at: past }).where('id', '=', slot.body.imageId).execute();
    const headers = { 'content-type': 'image/jpeg' };
    assertRefused(await sendUnfinished(t, 'PUT', new URL(slot.body.uploadUrl).pathname, headers), 410, 'upload_expired');
  });

  it('answers 401 to POST /mcp without a key while its message is still coming', EARLY, async () => {
    assertRefused(await sendUnfinished(t, 'POST', '/mcp', { ...json, accept: 'application/json, text/event-stream' }), 401, 'unauthorized');
  });

  it('answers 401 to POST /mcp with an unknown key while its message is still coming', EARLY, async () => {
    const headers = { ...json, accept: 'application/json, text/event-stream', authorization: UNKNOWN_KEY };
    assertRefused(await sendUnfinished(t, 'POST', '/mcp', headers), 401, 'unauthorized');
  });

  it('answers 413 to an invite accept, callable without a key, whose body is over 16 KB', async () => {
    const answer = await t.request('POST', `/api/v1/invites/${'A'.repeat(22)}/accept`, {
      key: null,
      team: null,
      body: { name: 'n'.repeat(17 * 1024) },
    });
    assert.equal(answer.status, 413, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'payload_too_large');
  });

  it('answers 401 to an invite accept with an unknown key while its body is still coming', EARLY, async () => {
    const headers = { ...json, authorization: UNKNOWN_KEY };
    assertRefused(await sendUnfinished(t, 'POST', `/api/v1/invites/${'A'.repeat(22)}/accept`, headers, 8 * 1024), 401, 'unauthorized');
  });

  it('still reads the whole body of a request whose key is good', async () => {
    const answer = await t.request('POST', '/api/images/projects', { body: { name: 'After the check' } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.name, 'After the check');
  });
});
