/**
 * The `data` of each event in a `text/event-stream` body, as the HTML standard's
 * event-stream parser reads it (§9.2.6): lines end in CR, LF or CRLF; `data:` lines of one
 * event are joined by LF; comments and other fields are skipped; an event is dispatched by
 * a blank line, so an unfinished one at the end of the stream is dropped. Stopping early
 * (a `break` in `for await`) cancels the body, which closes the connection.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let finished = false;
  try {
    while (!finished) {
      const chunk = await reader.read();
      finished = chunk.done;
      buffer += finished ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      // A CR at the very end may be the first half of a CRLF: keep it until the next chunk says.
      const heldCr = !finished && buffer.endsWith('\r');
      const lines = (heldCr ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
      buffer = lines.pop()! + (heldCr ? '\r' : '');
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        if (field !== 'data') continue;
        const value = colon === -1 ? '' : line.slice(colon + 1);
        data.push(value.startsWith(' ') ? value.slice(1) : value);
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
