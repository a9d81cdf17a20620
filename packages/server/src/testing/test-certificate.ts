import { readFileSync } from 'node:fs';

/**
 * A self-signed certificate for 127.0.0.1 and localhost, valid 2000–2100, for https test
 * sites (`startTestSite(site, { tls: testCertificate })`). Only a fetcher built with
 * `ca: testCertificate.cert` trusts it; the service's fetcher never does. Made with
 * `openssl ca -selfsign` (EC P-256, SAN IP:127.0.0.1 and DNS:localhost).
 */
export const testCertificate = {
  key: readFileSync(new URL('./fixtures/test-site-key.pem', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/test-site-cert.pem', import.meta.url)),
};
