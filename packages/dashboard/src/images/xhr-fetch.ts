/**
 * `fetch` over XMLHttpRequest, for the one thing fetch cannot tell: how much of a request's
 * body has gone out. A browser's fetch reports no upload progress (a streamed request body
 * would, but Chromium sends one only over HTTP/2, and the server speaks HTTP/1.1), while
 * `xhr.upload.onprogress` does. It is handed to the SDK as its `fetch`, so the SDK still
 * builds the request from the contract (uploadImage's multipart form, the headers) and this
 * only carries it.
 */
export function xhrFetch(onUploadProgress: (sent: number, total: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(signal.reason);
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : String(input));
      xhr.responseType = 'blob';
      xhr.withCredentials = init.credentials === 'include';
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onUploadProgress(event.loaded, event.total);
      };
      xhr.onload = () => {
        // A status that has no body (204, 304) must be built without one.
        const body = [101, 204, 205, 304].includes(xhr.status) ? null : (xhr.response as Blob);
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: responseHeaders(xhr) }));
      };
      xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(sendable(init.body));
    });
}

function sendable(body: BodyInit | null | undefined): XMLHttpRequestBodyInit | null {
  if (body === undefined || body === null) return null;
  if (body instanceof ReadableStream) throw new TypeError('xhrFetch cannot send a stream.');
  return body;
}

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}
