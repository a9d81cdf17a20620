import type { AuditedPage, PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, verdict } from './verdict.ts';

/** Six months, squirrelscan's minimum: shorter policies lapse between visits. */
const MIN_HSTS_SECONDS = 15_768_000;
const SECONDS_PER_DAY = 86_400;

/** What is wrong with the Strict-Transport-Security header, or null when it is good enough. */
function hstsProblem(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return 'no Strict-Transport-Security header';
  // Repeated headers arrive joined by ", "; browsers obey only the first (RFC 6797 §8.1).
  const first = value.split(',')[0] as string;
  const directive = first
    .split(';')
    .map((part) => part.trim())
    .find((part) => /^max-age\s*=/i.test(part));
  if (directive === undefined) return 'no max-age';
  const raw = directive
    .slice(directive.indexOf('=') + 1)
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (!/^\d+$/.test(raw)) return `max-age=${raw} is not a number`;
  const seconds = Number(raw);
  if (seconds === 0) return 'max-age=0 switches HSTS off';
  if (seconds < MIN_HSTS_SECONDS) return `max-age=${seconds} (${quantity(Math.floor(seconds / SECONDS_PER_DAY), 'day')})`;
  return null;
}

/** The protections `security/headers` looks for that the response lacks. */
function missingHeaders(page: AuditedPage, cspMetas: readonly string[]): string[] {
  const headers = page.headers;
  const csp = headers['content-security-policy'];
  const missing: string[] = [];
  if (csp === undefined && cspMetas.length === 0) missing.push('Content-Security-Policy');
  if (!/\bnosniff\b/i.test(headers['x-content-type-options'] ?? '')) missing.push('X-Content-Type-Options: nosniff');
  // frame-ancestors is ignored in a <meta> CSP, so only the header can stand in for X-Frame-Options.
  const frameGuard = (headers['x-frame-options'] ?? '').trim() !== '' || /(?:^|;)\s*frame-ancestors\b/i.test(csp ?? '');
  if (!frameGuard) missing.push('X-Frame-Options or CSP frame-ancestors');
  return missing;
}

export const securityRules: readonly PageRule[] = [
  {
    id: 'security/not-https',
    category: 'security',
    severity: 'error',
    scope: 'page',
    title: 'Page is served over http://',
    explanation:
      'Without HTTPS, anyone on the network can read or change what the visitor sees and sends. Browsers mark such pages "Not secure", and search engines prefer the secure version of a page.',
    fix: "Install a TLS certificate (free from Let's Encrypt or your host), serve the site over https://, and redirect every http:// URL to it with a 301.",
    check: htmlCheck((facts) => (facts.url.startsWith('http:') ? verdict([facts.url]) : null)),
  },
  {
    id: 'security/mixed-content',
    category: 'security',
    severity: 'warning',
    scope: 'page',
    title: 'Secure page loads insecure resources',
    explanation:
      'This https page loads images, scripts or other files over plain http://. Browsers block many of them, which can break the page, and show the page as not fully secure.',
    fix: 'Load every resource over https:// (most hosts and CDNs support it), or host the files yourself; fix the URLs in templates and content.',
    check: htmlCheck((facts) =>
      verdict(
        facts.mixedContent.items.map((item) => `${item.source} ${item.url}`),
        { count: facts.mixedContent.count },
      ),
    ),
  },
  {
    id: 'security/hsts',
    category: 'security',
    severity: 'notice',
    scope: 'page',
    title: 'HSTS is missing or too short',
    explanation:
      'Strict-Transport-Security tells browsers to always use HTTPS for your site, so the first request cannot be intercepted or downgraded. A policy shorter than six months expires between visits.',
    fix: 'Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every https response, once the whole site works over HTTPS.',
    check: htmlCheck((facts, page) => {
      if (!facts.url.startsWith('https:')) return null;
      const problem = hstsProblem(page.headers['strict-transport-security']);
      return problem === null ? null : verdict([problem], { detail: problem });
    }),
  },
  {
    id: 'security/insecure-form',
    category: 'security',
    severity: 'error',
    scope: 'page',
    title: 'Form sends data without encryption',
    explanation:
      'A form that submits to an http:// address sends what people type (names, emails, passwords) in the clear, even from an https page. Browsers warn visitors when they start filling it in.',
    fix: 'Make every form action an https:// URL (or a relative one).',
    check: htmlCheck((facts) => {
      // On an http page every form is insecure for one root cause, which security/not-https
      // already reports; only a form that would stay insecure once the page moves to https counts.
      const pageIsHttp = facts.url.startsWith('http:');
      const insecure = facts.forms.filter((form) => (pageIsHttp ? /^\s*http:/i.test(form.action ?? '') : form.url?.startsWith('http:')));
      return verdict(insecure.map((form) => `form action=${form.url ?? form.action ?? '(none)'}`));
    }),
  },
  {
    id: 'security/headers',
    category: 'security',
    severity: 'notice',
    scope: 'page',
    title: 'Security headers are missing',
    explanation:
      'A Content-Security-Policy limits the damage of injected scripts, nosniff stops browsers from guessing file types, and a framing rule stops other sites from embedding your pages to trick clicks. Each is a cheap layer of protection.',
    fix: "Configure your server or CDN to send Content-Security-Policy (including frame-ancestors 'self'), X-Content-Type-Options: nosniff and, for older browsers, X-Frame-Options: SAMEORIGIN.",
    check: htmlCheck((facts, page) => {
      const missing = missingHeaders(page, facts.cspMetas);
      return verdict(missing, { detail: `missing: ${missing.join(', ')}` });
    }),
  },
];
