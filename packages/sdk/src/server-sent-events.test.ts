import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readServerSentEvents } from './server-sent-events.ts';

/** A body arriving in exactly these chunks; `canceled` tells whether the reader gave up on it. */
function body(chunks: string[]) {
  const encoder = new TextEncoder();
  const state = { canceled: false };
  const pending = [...chunks];
  const stream = new ReadableStream<Uint8Array>({
    // One chunk per pull, as from a socket: the stream is still open while chunks remain.
    pull(controller) {
      const chunk = pending.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      state.canceled = true;
    },
  });
  return { stream, state };
}

async function events(chunks: string[]): Promise<string[]> {
  const seen: string[] = [];
  for await (const data of readServerSentEvents(body(chunks).stream)) seen.push(data);
  return seen;
}

describe('readServerSentEvents', () => {
  it('yields the data of each event', async () => {
    assert.deepEqual(await events(['data: {"a":1}\n\ndata: {"b":2}\n\n']), ['{"a":1}', '{"b":2}']);
  });

  it('joins an event split across chunks, even inside a line', async () => {
    assert.deepEqual(await events(['da', 'ta: {"a"', ':1}\n', '\n']), ['{"a":1}']);
  });

  it('reads CRLF and CR line ends, also a CRLF split between chunks', async () => {
    assert.deepEqual(await events(['data: one\r\n\r\ndata: two\r\r', 'data: a\r', '\ndata: b\r\n\r\n']), ['one', 'two', 'a\nb']);
  });

  it('joins the data lines of one event with a line feed', async () => {
    assert.deepEqual(await events(['data: first\ndata:second\n\n']), ['first\nsecond']);
  });

  it('skips comments, other fields and events without data', async () => {
    assert.deepEqual(await events([': keep-alive\n\nevent: progress\nid: 7\nretry: 10\ndata: x\n\nid: 8\n\n']), ['x']);
  });

  it('drops an event the stream ended before dispatching', async () => {
    assert.deepEqual(await events(['data: done\n\ndata: cut off']), ['done']);
  });

  it('cancels the body when the reader stops early', async () => {
    const { stream, state } = body(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
    for await (const data of readServerSentEvents(stream)) if (data === '1') break;
    assert.equal(state.canceled, true);
  });
});
