import { CSRF_HEADER } from '@loupe/contract';
import { createClient, type LoupeClient } from '@loupe/sdk';

/**
 * The SDK as the signed-in dashboard uses it: no API key (the session cookie goes along), the
 * session's CSRF token on every request, and the workspace in `x-service-team` on both APIs
 * (a session belongs to no workspace, so the image API needs the header too).
 * `onSessionEnded` hears every 401, so any screen's call can send the browser to sign in.
 * `fetch` replaces the browser's (images/xhr-fetch.ts, for upload progress).
 */
export function createApiClient(options: {
  csrfToken: string;
  workspaceId: string;
  onSessionEnded: () => void;
  fetch?: typeof fetch;
}): LoupeClient {
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  return createClient({
    workspaceId: options.workspaceId,
    headers: { [CSRF_HEADER]: options.csrfToken, 'x-service-team': options.workspaceId },
    fetch: async (input, init) => {
      const response = await send(input, { ...init, credentials: 'same-origin' });
      if (response.status === 401) options.onSessionEnded();
      return response;
    },
  });
}
