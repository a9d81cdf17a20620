import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../config.ts';
import type { Database } from '../database/database.ts';
import { openSqliteDatabase } from '../database/sqlite-database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { startServer } from '../server.ts';
import { CreditStore } from './credit-store.ts';

const cli = new URL('../cli.ts', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('loupe admin (sqlite)', () => {
  let dataDir: string;
  let workspaceId: string;
  let key: string;
  /** The same SQLite file, opened here to read what the commands did without another process. */
  let database: Database;

  /** Runs the CLI in the data dir (so no stray .env is read); never throws on a non-zero exit. */
  function loupe(...args: string[]): Promise<Run> {
    const env = { ...process.env, LOUPE_DATA_DIR: dataDir, DATABASE_URL: '', LOUPE_BOOTSTRAP_KEY: '', LOUPE_PLANS_FILE: '' };
    return new Promise((resolve) => {
      execFile(process.execPath, [cli, ...args], { env, cwd: dataDir }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      });
    });
  }

  async function workspaces(): Promise<{ id: string; name: string; plan: string; balance: number }[]> {
    const run = await loupe('admin', 'workspaces', '--json');
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  }

  const balance = () => new CreditStore(database).balance(workspaceId);
  const plan = async () => (await new WorkspaceStore(database).findWorkspace(workspaceId))?.plan;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-admin-'));
    const init = await loupe('init', '--json');
    assert.equal(init.code, 0, init.stderr);
    ({ workspaceId, key } = JSON.parse(init.stdout));
    database = openSqliteDatabase(join(dataDir, 'loupe.db'));
  });
  after(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('workspaces', () => {
    it('lists id, name, plan and balance under a header', async () => {
      const run = await loupe('admin', 'workspaces');
      assert.equal(run.code, 0, run.stderr);
      const [header, row] = run.stdout.trimEnd().split('\n');
      assert.match(header ?? '', /^ID\s+NAME\s+PLAN\s+BALANCE$/);
      assert.match(row ?? '', new RegExp(`^${workspaceId}\\s+Default\\s+${await plan()}\\s+${await balance()}$`));
    });

    it('answers a JSON array with --json', async () => {
      assert.deepEqual(await workspaces(), [{ id: workspaceId, name: 'Default', plan: await plan(), balance: await balance() }]);
    });
  });

  describe('grant-credits', () => {
    it('adds the amount to the balance and says so', async () => {
      const before = (await balance()) as number;
      const run = await loupe('admin', 'grant-credits', '--workspace', workspaceId, '--amount', '250', '--note', 'Launch bonus');
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`Granted 250 credits to workspace ${workspaceId}; the balance is now ${before + 250}\\.`));
      assert.equal(await balance(), before + 250);
    });

    it('answers the grant and the new balance with --json', async () => {
      const before = (await balance()) as number;
      const run = await loupe('admin', 'grant-credits', '--workspace', workspaceId, '--amount', '5', '--json');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { workspaceId, granted: 5, balance: before + 5 });
    });

    it("shows in the workspace's credits and ledger over the API", async () => {
      await loupe('admin', 'grant-credits', '--workspace', workspaceId, '--amount', '40', '--note', 'Seen by the API');
      const expected = await balance();
      const server = await startServer({ ...loadConfig({}), port: 0, dataDir, logLevel: 'silent' }, pino({ level: 'silent' }));
      try {
        const headers = { authorization: `Bearer ${key}`, 'x-service-team': workspaceId };
        const credits = await (await fetch(`${server.url}/api/v1/team/credits`, { headers })).json();
        assert.equal(credits.balance, expected);
        const ledger = await (await fetch(`${server.url}/api/v1/team/credits/ledger?limit=100`, { headers })).json();
        const grant = ledger.find((entry: any) => entry.note === 'Seen by the API');
        assert.equal(grant?.kind, 'grant');
        assert.equal(grant?.amount, 40);
      } finally {
        await server.close();
      }
    });

    for (const amount of ['0', '-5', '12abc', '1.5', '1000000001']) {
      it(`refuses --amount=${amount} with exit code 2 and grants nothing`, async () => {
        const before = await balance();
        const run = await loupe('admin', 'grant-credits', '--workspace', workspaceId, `--amount=${amount}`);
        assert.equal(run.code, 2);
        assert.match(run.stderr, /--amount must be a whole number from 1 to 1,000,000,000/);
        assert.equal(run.stdout, '');
        assert.equal(await balance(), before);
      });
    }

    it('refuses a missing --amount with exit code 2', async () => {
      const run = await loupe('admin', 'grant-credits', '--workspace', workspaceId);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--amount/);
    });

    it('refuses a workspace that is not an id with exit code 2', async () => {
      const run = await loupe('admin', 'grant-credits', '--workspace', 'Default', '--amount', '5');
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--workspace must be a workspace id/);
    });

    it('fails with exit code 1 for a workspace that does not exist', async () => {
      const unknown = '0190a1b2-0000-7000-8000-000000000000';
      const run = await loupe('admin', 'grant-credits', '--workspace', unknown, '--amount', '5');
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`No workspace with id ${unknown}`));
    });
  });

  describe('set-plan', () => {
    it('moves the workspace to another plan and says from which', async () => {
      const previousPlan = await plan();
      const run = await loupe('admin', 'set-plan', '--workspace', workspaceId, '--plan', 'pro');
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`is now on the pro plan \\(was ${previousPlan}\\)`));
      assert.equal(await plan(), 'pro');
    });

    it('answers the change with --json', async () => {
      const previousPlan = await plan();
      const run = await loupe('admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { workspaceId, plan: 'business', previousPlan });
    });

    it('refuses a plan not in the plan table with exit code 2, naming the plans', async () => {
      const planBefore = await plan();
      const run = await loupe('admin', 'set-plan', '--workspace', workspaceId, '--plan', 'gold');
      assert.equal(run.code, 2);
      assert.match(run.stderr, /Unknown plan "gold": choose one of free, pro, business, self-hosted\./);
      assert.equal(await plan(), planBefore);
    });

    it('fails with exit code 1 for a workspace that does not exist', async () => {
      const run = await loupe('admin', 'set-plan', '--workspace', '0190a1b2-0000-7000-8000-000000000000', '--plan', 'pro');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /No workspace with id/);
    });
  });

  it('refuses an unknown admin command with exit code 2', async () => {
    const run = await loupe('admin', 'delete-everything');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown command/);
  });
});
