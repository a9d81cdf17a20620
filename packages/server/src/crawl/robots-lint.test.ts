import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintRobotsTxt } from './robots-lint.ts';
import { loadRobots } from './robots-policy.ts';

describe('lintRobotsTxt', () => {
  it('finds nothing in a well-formed file with comments, blank lines and the directives Lighthouse accepts', () => {
    const text = [
      '# robots for example.com',
      '',
      'User-agent: *',
      'Disallow: /private/ # not for crawlers',
      'Allow: /private/open/',
      'Disallow: /*.pdf$',
      'Disallow:',
      'Crawl-delay: 2',
      '',
      'user-agent: Googlebot',
      'disallow: *?sort=',
      'Sitemap: https://example.com/sitemap.xml',
      'Host: example.com',
      'Clean-param: ref /articles/',
    ].join('\r\n');
    assert.deepEqual(lintRobotsTxt(text), { count: 0, samples: [] });
  });

  it('names each kind of line crawlers cannot use, with its line number, three at most', () => {
    const cases: [string, string][] = [
      ['User-agent: *\nDisallow /private/', 'line 2: no colon in "Disallow /private/"'],
      ['User-agent: *\nDissallow: /private/', 'line 2: unknown directive "Dissallow"'],
      ['Disallow: /private/\nUser-agent: *', 'line 1: disallow before any user-agent'],
      ['User-agent: *\nAllow: private/', 'line 2: pattern "private/" does not start with / or *'],
      ['User-agent: *\nDisallow: /a$b', 'line 2: "$" inside the pattern "/a$b" (only at its end)'],
      ['User-agent:\nDisallow: /', 'line 1: empty user-agent'],
      ['User-agent: *\nSitemap: /sitemap.xml', 'line 2: sitemap "/sitemap.xml" is not a URL'],
      ['User-agent: *\nSitemap: file:///sitemap.xml', 'line 2: sitemap "file:///sitemap.xml" is not http(s) or ftp'],
    ];
    for (const [text, sample] of cases) assert.deepEqual(lintRobotsTxt(text), { count: 1, samples: [sample] }, text);
    const many = lintRobotsTxt('a\nb\nc\nd\n');
    assert.deepEqual([many.count, many.samples.length], [4, 3]);
  });
});

describe('RobotsPolicy.problems', () => {
  it('lints a file that was read, and only such a file', async () => {
    const read = await loadRobots('https://example.com', async () => ({ status: 200, body: 'User-agent: *\nNoIndex /x\n' }), 'LoupeBot');
    assert.deepEqual(read.problems, { count: 1, samples: ['line 2: no colon in "NoIndex /x"'] });
    const missing = await loadRobots('https://example.com', async () => ({ status: 404, body: 'Not found, sorry' }), 'LoupeBot');
    assert.deepEqual(missing.problems, { count: 0, samples: [] });
  });
});

describe('RobotsPolicy.disallowedForSearchEngines', () => {
  it('names the groups of * and Googlebot (falling back to *) that disallow a URL', async () => {
    const body = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: LoupeBot\nAllow: /\n';
    const policy = await loadRobots('https://example.com', async () => ({ status: 200, body }), 'LoupeBot');
    assert.deepEqual(policy.disallowedForSearchEngines('https://example.com/private/a'), ['*']);
    assert.deepEqual(policy.disallowedForSearchEngines('https://example.com/drafts/a'), ['Googlebot']);
    assert.deepEqual(policy.disallowedForSearchEngines('https://example.com/public'), []);
    assert.equal(policy.isAllowed('https://example.com/private/a'), true, 'LoupeBot has its own group');
    const fallback = await loadRobots(
      'https://example.com',
      async () => ({ status: 200, body: 'User-agent: *\nDisallow: /\n' }),
      'LoupeBot',
    );
    assert.deepEqual(fallback.disallowedForSearchEngines('https://example.com/a'), ['*', 'Googlebot']);
  });

  it('tells nothing when robots.txt could not be read, though everything is then disallowed', async () => {
    const unreadable = await loadRobots('https://example.com', async () => ({ status: 503, body: '' }), 'LoupeBot');
    assert.equal(unreadable.isAllowed('https://example.com/a'), false);
    assert.deepEqual(unreadable.disallowedForSearchEngines('https://example.com/a'), []);
  });
});
