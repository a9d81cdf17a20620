import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProgressBar } from './progress-bar.ts';

/** A stream that keeps what is written, as a terminal (isTTY) or a pipe. */
function captured(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = { isTTY, columns: 80, write: (chunk: string) => (chunks.push(chunk), true) };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describe('ProgressBar', () => {
  it('redraws one line in place on a terminal, and ends it with a newline', () => {
    const out = captured(true);
    const bar = new ProgressBar(out.stream, { unit: 'pages' });
    bar.update(5, 10, 'https://example.com/a');
    bar.update(10, 10);
    bar.stop();
    const lines = out.text().split('\r\x1b[2K').filter(Boolean);
    assert.equal(lines[0], '[████████████░░░░░░░░░░░░] 5/10 pages  https://example.com/a');
    assert.equal(lines.at(-1), '[████████████████████████] 10/10 pages\n');
  });

  it('keeps a logged line above the bar and draws the bar again below it', () => {
    const out = captured(true);
    const bar = new ProgressBar(out.stream, { unit: 'pages' });
    bar.update(1, 4);
    bar.log('Crawl x: completed');
    assert.match(out.text(), /\r\x1b\[2KCrawl x: completed\n\r\x1b\[2K\[██████░+\] 1\/4 pages/);
  });

  it('draws a new stage at once with its own text on a terminal', () => {
    const out = captured(true);
    const bar = new ProgressBar(out.stream, { unit: 'pages' });
    bar.show({ current: 10, total: 10, text: 'pages 10/10', stage: 'pages' });
    bar.show({ current: 0, total: 40, text: 'pages 10/10 · checking links 0/40', stage: 'links' });
    assert.equal(out.text().split('\r\x1b[2K').filter(Boolean).at(-1), '[░░░░░░░░░░░░░░░░░░░░░░░░] pages 10/10 · checking links 0/40');
  });

  it('cuts the line to the width of the terminal', () => {
    const out = captured(true);
    new ProgressBar(out.stream, { unit: 'pages' }).update(1, 2, `https://example.com/${'a'.repeat(100)}`);
    const line = out.text().replace('\r\x1b[2K', '');
    assert.equal(line.length, 79);
    assert.ok(line.endsWith('…'));
  });

  it('writes plain lines, one per tenth of the way, to a pipe', () => {
    const out = captured(false);
    const bar = new ProgressBar(out.stream, { unit: 'pages' });
    for (let page = 1; page <= 100; page++) bar.update(page, 100);
    bar.log('done');
    bar.stop();
    const lines = out.text().trimEnd().split('\n');
    assert.equal(lines.length, 12, 'the first page, each tenth, and the log line');
    assert.deepEqual(lines.slice(0, 2), ['1/100 pages', '10/100 pages']);
    assert.deepEqual(lines.slice(-2), ['100/100 pages', 'done']);
    assert.doesNotMatch(out.text(), /[\r\x1b]/);
  });
});
