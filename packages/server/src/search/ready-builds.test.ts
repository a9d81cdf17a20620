import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ProjectBuild, READY_BUILD_CACHE_MS, ReadyBuilds } from './ready-builds.ts';

// What it keeps and when it reads again is RecentReads' (database/recent-reads.test.ts).
describe('ReadyBuilds', () => {
  it('reads a project once for the searches of READY_BUILD_CACHE_MS, at once once forgotten, and again when asked to', async () => {
    let at = 1000;
    const builds = new ReadyBuilds({ now: () => at });
    const projects: Record<string, ProjectBuild> = { p: { workspaceId: 'w', buildId: 'b1' } };
    let reads = 0;
    const read = async (projectId: string) => (reads++, projects[projectId]);
    assert.deepEqual(await builds.find('p', read), { workspaceId: 'w', buildId: 'b1', kept: false });
    projects.p = { workspaceId: 'w', buildId: 'b2' };
    at += READY_BUILD_CACHE_MS - 1;
    assert.deepEqual(await builds.find('p', read), { workspaceId: 'w', buildId: 'b1', kept: true });
    at += 2;
    assert.deepEqual(
      await builds.find('p', read),
      { workspaceId: 'w', buildId: 'b2', kept: false },
      'a switch by another process is seen after READY_BUILD_CACHE_MS',
    );
    projects.p = { workspaceId: 'w', buildId: 'b3' };
    builds.forget('p');
    assert.equal((await builds.find('p', read))?.buildId, 'b3', 'a build this process completed is read at once');
    projects.p = { workspaceId: 'w', buildId: 'b4' };
    assert.equal((await builds.reread('p', read))?.buildId, 'b4');
    assert.deepEqual(await builds.find('p', read), { workspaceId: 'w', buildId: 'b4', kept: true }, 'what it reread is kept');
    assert.equal(reads, 4);
  });
});
