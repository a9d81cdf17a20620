import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { crawlToReport } from '../testing/test-crawls.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { Output } from './output.ts';
import { ProgressBar } from './progress-bar.ts';
import { terminalJson, terminalText, terminalValue } from './terminal-text.ts';
import { json, runLoupe, serverEnv } from './test-loupe-run.ts';

/** What a hostile page title can hold: a window-title escape, a colour, a C1 CSI, a bidi override. */
const HOSTILE = 'Invoice \x1b]0;owned\x07 \x1b[31mred\x9b0m \u202egpj.exe\u2066 \u0000\x7f';
/** Any character a terminal would obey or that reorders text. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/** Streams that keep what is written, as a terminal or a pipe. */
function capture(isTTY: boolean) {
  const chunks = { stdout: [] as string[], stderr: [] as string[] };
  const stream = (into: string[]) =>
    ({ isTTY, columns: 200, write: (chunk: string) => (into.push(chunk), true) }) as unknown as NodeJS.WriteStream;
  return {
    streams: { stdout: stream(chunks.stdout), stderr: stream(chunks.stderr) },
    stdout: () => chunks.stdout.join(''),
    stderr: () => chunks.stderr.join(''),
  };
}

describe('terminal text', () => {
  it('shows control and bidi characters as escapes, and keeps the rest of the text', () => {
    assert.equal(terminalText(HOSTILE), 'Invoice \\x1b]0;owned\\x07 \\x1b[31mred\\x9b0m \\u202egpj.exe\\u2066 \\x00\\x7f');
    assert.equal(terminalText('Café 👩‍💻 東京 🏴󠁧󠁢󠁳󠁣󠁴󠁿'), 'Café 👩‍💻 東京 🏴󠁧󠁢󠁳󠁣󠁴󠁿');
  });

  it('keeps newlines and tabs only in multi-line text', () => {
    assert.equal(terminalText('a\n\tb\r'), 'a\\x0a\\x09b\\x0d');
    assert.equal(terminalText('a\n\tb\r', { multiline: true }), 'a\n\tb\\x0d');
  });

  it('escapes every string of an answer, keys included', () => {
    assert.deepEqual(terminalValue({ name: 'a\u202eb', list: ['\x1b[2J', 3, null], 'k\x07': true }), {
      name: 'a\\u202eb',
      list: ['\\x1b[2J', 3, null],
      'k\\x07': true,
    });
  });

  it('writes JSON that parses to the same value with nothing raw in it', () => {
    const value = { title: HOSTILE, flag: '🏴󠁧󠁢󠁳󠁣󠁴󠁿', lone: '\ud800' };
    const text = terminalJson(JSON.stringify(value, null, 2));
    assert.doesNotMatch(text, RAW);
    assert.deepEqual(JSON.parse(text), value);
  });
});

describe('CLI output of server data', () => {
  it('prints a result as text with its strings escaped and the formatting of the command kept', () => {
    const out = capture(true);
    new Output({}, out.streams).result({ title: HOSTILE }, (value) => `\x1b[1m${value.title}\x1b[22m`);
    assert.equal(out.stdout(), `\x1b[1m${terminalText(HOSTILE)}\x1b[22m\n`);
  });

  it('prints --json results and errors as JSON without raw control or bidi characters', () => {
    const out = capture(true);
    const output = new Output({ json: true }, out.streams);
    output.result({ title: HOSTILE }, () => '');
    output.error(new LoupeError('not_found', { message: `No page ${HOSTILE}` }));
    assert.doesNotMatch(out.stdout() + out.stderr(), RAW);
    assert.equal(JSON.parse(out.stdout()).title, HOSTILE);
    assert.equal(JSON.parse(out.stderr()).error, `No page ${HOSTILE}`);
  });

  it('prints error messages and notes from the server escaped', () => {
    const out = capture(true);
    const output = new Output({}, out.streams);
    output.error(new LoupeError('validation_failed', { details: { fieldErrors: { [`name${HOSTILE}`]: [HOSTILE] }, formErrors: [] } }));
    output.note(`Crawl of ${HOSTILE}`);
    assert.doesNotMatch(out.stderr(), RAW);
    assert.match(out.stderr(), /\\u202egpj\.exe/);
  });

  it('writes an export raw into a pipe and escaped on a terminal', () => {
    const pipe = capture(false);
    new Output({}, pipe.streams).file(HOSTILE);
    assert.equal(pipe.stdout(), `${HOSTILE}\n`);
    const terminal = capture(true);
    new Output({}, terminal.streams).file(HOSTILE);
    assert.doesNotMatch(terminal.stdout(), RAW);
  });

  it('draws the last crawled URL of a progress bar escaped', () => {
    for (const live of [true, false]) {
      const out = capture(live);
      const bar = new ProgressBar(out.streams.stderr, { unit: 'pages', live });
      bar.update(1, 2, HOSTILE);
      bar.log(`Crawl ${HOSTILE}`);
      // The bar's own redraw (\r, ESC [2K) is the only control sequence written.
      assert.doesNotMatch(out.stderr().replaceAll('\r\x1b[2K', ''), RAW);
    }
  });
});

describe('loupe printing a crawled page title', () => {
  let t: TestServer;
  let site: TestSite;
  let reportId: string;
  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    site = await startTestSite({
      pages: { '/': `<!doctype html><html lang="en"><head><title>${HOSTILE}</title></head><body><h1>Hi</h1></body></html>` },
    });
    reportId = (await crawlToReport(t, { url: site.url('/'), mode: 'page' })).id;
  });
  after(async () => {
    await site.close();
    await t.close();
  });

  it('shows the title in the page table with its escape sequences and overrides escaped', async () => {
    const run = await runLoupe(['reports', 'pages', reportId], serverEnv(t));
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, RAW);
    assert.match(run.stdout, /Invoice \\x1b\]0;owned\\x07 .*\\u202egpj\.exe/);
  });

  it('gives the title whole to a script with --json, still without raw characters on the terminal', async () => {
    const run = await runLoupe(['reports', 'pages', reportId, '--json'], serverEnv(t));
    assert.doesNotMatch(run.stdout, RAW);
    assert.match(json(run)[0].title, /\u202egpj\.exe/);
  });
});
