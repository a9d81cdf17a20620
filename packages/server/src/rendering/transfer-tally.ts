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

/**
 * Counts a page's requests and bytes by kind from Chromium's own network events (one CDP
 * session per page). Resource timing would hide the size of every cross-origin response
 * without Timing-Allow-Origin; the network stack sees them all.
 */
export async function tallyTransfers(session: CDPSession, refusedTunnel: (url: string) => boolean): Promise<() => TransferSummary> {
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

  session.on('Network.requestWillBeSent', (event) => {
    kindOf.set(event.requestId, KINDS[event.type ?? ''] ?? 'other');
    urlOf.set(event.requestId, event.request.url);
  });
  session.on('Network.responseReceived', (event) => {
    if (event.response.headers['x-loupe-guard'] === 'refused') blocked(event.response.url);
  });
  session.on('Network.loadingFinished', (event) => {
    const kind = kindOf.get(event.requestId) ?? 'other';
    summary.requests += 1;
    summary.bytes += event.encodedDataLength;
    byKind[kind].requests += 1;
    byKind[kind].bytes += event.encodedDataLength;
  });
  session.on('Network.loadingFailed', (event) => {
    summary.failed += 1;
    const url = urlOf.get(event.requestId);
    if (url && event.errorText === TUNNEL_REFUSED && refusedTunnel(url)) blocked(url);
  });
  await session.send('Network.enable');
  return () => summary;
}
