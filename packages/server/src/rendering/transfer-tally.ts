import type { CDPSession } from 'playwright-core';

export type ResourceKind = 'document' | 'script' | 'stylesheet' | 'image' | 'font' | 'fetch' | 'media' | 'other';

export interface TransferSummary {
  requests: number;
  /** Bytes on the wire (headers and compressed bodies), as Chromium's network stack counted them. */
  bytes: number;
  byKind: Record<ResourceKind, { requests: number; bytes: number }>;
  /** Requests the address guard refused (the proxy answered for it), at most 20 listed. */
  blocked: string[];
  failed: number;
}

const KINDS: Record<string, ResourceKind> = {
  Document: 'document',
  Script: 'script',
  Stylesheet: 'stylesheet',
  Image: 'image',
  Font: 'font',
  XHR: 'fetch',
  Fetch: 'fetch',
  EventSource: 'fetch',
  WebSocket: 'fetch',
  Media: 'media',
};
const MAX_BLOCKED_LISTED = 20;
/** Chromium's error for any CONNECT tunnel the proxy did not open; the proxy says which it refused. */
const TUNNEL_REFUSED = 'net::ERR_TUNNEL_CONNECTION_FAILED';

export interface TransferTally {
  summary(): TransferSummary;
  /** Stops counting; the session stays open for the tab's next page. */
  stop(): void;
}

/**
 * Counts a page's requests and bytes by kind from Chromium's own network events on the page's
 * CDP session (Network.enable already sent). Resource timing would hide the size of every
 * cross-origin response without Timing-Allow-Origin; the network stack sees them all. Only
 * requests that start after this call count: a previous page of the tab is not this one's.
 */
export function tallyTransfers(session: CDPSession, refusedTunnel: (url: string) => boolean): TransferTally {
  const kindOf = new Map<string, ResourceKind>();
  const urlOf = new Map<string, string>();
  const byKind = Object.fromEntries(
    Object.values(KINDS)
      .concat('other')
      .map((kind) => [kind, { requests: 0, bytes: 0 }]),
  ) as TransferSummary['byKind'];
  const summary: TransferSummary = { requests: 0, bytes: 0, byKind, blocked: [], failed: 0 };
  const blocked = (url: string | undefined) => {
    if (url && summary.blocked.length < MAX_BLOCKED_LISTED && !summary.blocked.includes(url)) summary.blocked.push(url);
  };

  const started = (event: { requestId: string; type?: string; request: { url: string } }) => {
    kindOf.set(event.requestId, KINDS[event.type ?? ''] ?? 'other');
    urlOf.set(event.requestId, event.request.url);
  };
  const answered = (event: { requestId: string; response: { url: string; headers: Record<string, string> } }) => {
    if (kindOf.has(event.requestId) && event.response.headers['x-loupe-guard'] === 'refused') blocked(event.response.url);
  };
  const finished = (event: { requestId: string; encodedDataLength: number }) => {
    const kind = kindOf.get(event.requestId);
    if (!kind) return;
    summary.requests += 1;
    summary.bytes += event.encodedDataLength;
    byKind[kind].requests += 1;
    byKind[kind].bytes += event.encodedDataLength;
  };
  const failed = (event: { requestId: string; errorText: string }) => {
    const url = urlOf.get(event.requestId);
    if (url === undefined) return;
    summary.failed += 1;
    if (event.errorText === TUNNEL_REFUSED && refusedTunnel(url)) blocked(url);
  };
  session.on('Network.requestWillBeSent', started);
  session.on('Network.responseReceived', answered);
  session.on('Network.loadingFinished', finished);
  session.on('Network.loadingFailed', failed);
  return {
    summary: () => summary,
    stop() {
      session.off('Network.requestWillBeSent', started);
      session.off('Network.responseReceived', answered);
      session.off('Network.loadingFinished', finished);
      session.off('Network.loadingFailed', failed);
    },
  };
}
