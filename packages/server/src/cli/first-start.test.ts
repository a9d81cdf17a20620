import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, loupeEntry, runLoupe } from './test-loupe-run.ts';

/** A port nobody listens on now (the server then takes it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

interface Served {
  child: ChildProcess;
  stdout: string;
  stderr: string;
}

/** Runs `loupe serve` until its first start's notice is complete (the dashboard line) and it listens. */
function serve(env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [loupeEntry, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env } });
    const served: Served = { child, stdout: '', stderr: '' };
    const check = () => {
      if (served.stderr.includes('dashboard: open') && served.stdout.includes('Loupe listening')) resolve(served);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      served.stdout += chunk.toString();
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      served.stderr += chunk.toString();
      check();
    });
    child.on('exit', (code) => reject(new Error(`loupe serve exited ${code}:\n${served.stdout}\n${served.stderr}`)));
  });
}

function stop(served: Served): Promise<void> {
  return new Promise((resolve) => {
    served.child.removeAllListeners('exit');
    served.child.once('exit', () => resolve());
    served.child.kill('SIGKILL');
  });
}

describe('the first start of `loupe serve` (sqlite)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-first-start-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('says the plan and the key on stderr, keeps the key out of the JSON log, and points URLs at PORT', async () => {
    const port = await freePort();
    const served = await serve({ LOUPE_DATA_DIR: join(dataDir, 'a'), PORT: String(port) });
    try {
      assert.match(served.stderr, /plan: self-hosted \(100,000 pages a crawl, no credits needed, unlimited image projects/);
      const key = /API key \(shown once, store it now\): (loupe_\S+)/.exec(served.stderr)?.[1];
      assert.ok(key, served.stderr);
      assert.ok(served.stderr.includes(`dashboard: open http://127.0.0.1:${port}/ `), served.stderr);
      assert.ok(!served.stdout.includes(key), 'the key is not in the log stream');
      for (const line of served.stdout.trim().split('\n')) JSON.parse(line);

      const workspaceId = /workspace id: (\S+)/.exec(served.stderr)?.[1] as string;
      const headers = { authorization: `Bearer ${key}`, 'x-service-team': workspaceId };
      const invite = await fetch(`http://127.0.0.1:${port}/api/v1/team/invites`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'new@example.test', role: 'member' }),
      });
      assert.equal(invite.status, 201, await invite.clone().text());
      assert.match((await invite.json()).url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/invites/`));
      await fetch(`http://127.0.0.1:${port}/api/v1/team/invites`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'other@example.test', role: 'viewer' }),
      });
      const invites = await fetch(`http://127.0.0.1:${port}/api/v1/team/invites?limit=1`, { headers });
      assert.match(
        invites.headers.get('link') ?? '',
        new RegExp(`^<http://127\\.0\\.0\\.1:${port}/api/v1/team/invites\\?limit=1&cursor=[^>]+>; rel="next"$`),
      );
      const team = await (await fetch(`http://127.0.0.1:${port}/api/v1/team`, { headers })).json();
      assert.equal(team.plan, 'self-hosted');
    } finally {
      await stop(served);
    }
  });

  it('writes a generated key to LOUPE_BOOTSTRAP_KEY_FILE, readable by its owner only, and only names the file', async () => {
    const keyFile = join(dataDir, 'bootstrap-key');
    const served = await serve({ LOUPE_DATA_DIR: join(dataDir, 'b'), PORT: String(await freePort()), LOUPE_BOOTSTRAP_KEY_FILE: keyFile });
    try {
      const { readFile } = await import('node:fs/promises');
      const key = (await readFile(keyFile, 'utf8')).trim();
      assert.match(key, /^loupe_[A-Za-z0-9_-]{24,}$/);
      assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
      assert.ok(served.stderr.includes(`API key: written to ${keyFile}`), served.stderr);
      assert.ok(!served.stderr.includes(key) && !served.stdout.includes(key));
    } finally {
      await stop(served);
    }
  });

  it('gives the first workspace the plan LOUPE_DEFAULT_PLAN names', async () => {
    const served = await serve({ LOUPE_DATA_DIR: join(dataDir, 'c'), PORT: String(await freePort()), LOUPE_DEFAULT_PLAN: 'free' });
    await stop(served);
    assert.match(served.stderr, /plan: free \(500 pages a crawl, 1,000 credits a month, 3 image projects/);
  });

  it('refuses to start with a LOUPE_DEFAULT_PLAN the plan table lacks, saying which it has', async () => {
    const run = await runLoupe(['serve'], {
      LOUPE_DATA_DIR: join(dataDir, 'd'),
      PORT: String(await freePort()),
      LOUPE_DEFAULT_PLAN: 'gold',
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /LOUPE_DEFAULT_PLAN: no plan "gold" in the plan table; choose one of free, pro, business, self-hosted\./);
  });

  it('answers --version with the package version', async () => {
    const run = await runLoupe(['--version']);
    assert.deepEqual([run.code, run.stdout], [0, '0.1.0\n']);
  });
});

describe('loupe admin: workspaces, keys and users (sqlite)', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let defaultWorkspace: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-admin-users-'));
    env = { LOUPE_DATA_DIR: dataDir };
    const init = await runLoupe(['init', '--json'], env);
    defaultWorkspace = json(init).workspaceId;
    assert.equal(json(init).plan, 'self-hosted');
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('creates a workspace with a new owner and an owner key that works', async () => {
    const run = await runLoupe(
      ['admin', 'create-workspace', '--name', 'Client A', '--owner', 'Ann@Example.test', '--plan', 'pro', '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const created = json(run);
    assert.deepEqual(
      [created.name, created.plan, created.owner.email, created.owner.created],
      ['Client A', 'pro', 'ann@example.test', true],
    );
    assert.match(created.key.secret, /^loupe_/);
    const users = json(await runLoupe(['admin', 'list-users', '--workspace', created.workspaceId, '--json'], env));
    assert.deepEqual(users, [
      {
        id: created.owner.id,
        email: 'ann@example.test',
        hasPassword: false,
        workspaces: [{ id: created.workspaceId, name: 'Client A', role: 'owner' }],
      },
    ]);
  });

  it('makes an existing account the owner of another workspace, on the default plan', async () => {
    const run = await runLoupe(['admin', 'create-workspace', '--name', 'Client B', '--owner', 'ann@example.test'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /on the self-hosted plan, owned by ann@example\.test\.\n {2}owner API key \(shown once, store it now\): loupe_/,
    );
    const ann = json(await runLoupe(['admin', 'users', '--json'], env)).find((u: { email: string }) => u.email === 'ann@example.test');
    assert.deepEqual(
      ann.workspaces.map((w: { name: string; role: string }) => `${w.name} ${w.role}`),
      ['Client A owner', 'Client B owner'],
    );
  });

  it('refuses missing or malformed arguments with exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['admin', 'create-workspace', '--owner', 'a@example.test'], /required option '--name <name>'/],
      [['admin', 'create-workspace', '--name', 'X'], /required option '--owner <email>'/],
      [['admin', 'create-workspace', '--name', 'X', '--owner', 'not-an-email'], /--owner: Invalid email/],
      [['admin', 'create-workspace', '--name', '', '--owner', 'a@example.test'], /--name: /],
      [
        ['admin', 'create-workspace', '--name', 'X', '--owner', 'a@example.test', '--plan', 'gold'],
        /Unknown plan "gold": choose one of free, pro, business, self-hosted/,
      ],
      [['admin', 'mint-key'], /required option '--workspace <id>'/],
      [['admin', 'mint-key', '--workspace', 'nope'], /--workspace must be a workspace id \(a UUID\), not "nope"/],
      [['admin', 'users', '--workspace', 'nope'], /--workspace must be a workspace id/],
    ];
    for (const [args, message] of cases) {
      const run = await runLoupe(args, env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
    }
  });

  it('mints a key of the owner, or of the member --email names, and says when there is no such workspace or member', async () => {
    const minted = await runLoupe(['admin', 'mint-key', '--workspace', defaultWorkspace, '--name', 'Laptop', '--json'], env);
    assert.equal(minted.code, 0, minted.stderr);
    const key = json(minted);
    assert.deepEqual([key.role, key.user.email, key.key.name], ['owner', 'owner@localhost', 'Laptop']);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const noWorkspace = await runLoupe(['admin', 'mint-key', '--workspace', unknown], env);
    assert.equal(noWorkspace.code, 1);
    assert.match(noWorkspace.stderr, /No workspace with id 00000000-0000-4000-8000-000000000000/);
    const noMember = await runLoupe(['admin', 'mint-key', '--workspace', defaultWorkspace, '--email', 'ann@example.test'], env);
    assert.equal(noMember.code, 1);
    assert.match(noMember.stderr, /No member ann@example\.test in workspace .* \(members: owner@localhost\)/);
    const noUsers = await runLoupe(['admin', 'users', '--workspace', unknown, '--json'], env);
    assert.equal(noUsers.code, 1);
  });

  it('says `init` has nothing to do on a second run, and how to get a key', async () => {
    const run = await runLoupe(['init'], env);
    assert.match(run.stdout, /Already initialized: nothing to do\. `loupe admin mint-key` makes a new key\./);
  });
});
