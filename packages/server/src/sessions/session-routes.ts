import {
  CompletePasswordReset,
  CSRF_HEADER,
  LoupeError,
  parseOrThrow,
  RequestPasswordReset,
  type Session,
  Setup,
  SignIn,
  sessionPaths,
} from '@loupe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS_BODY_LIMIT } from '../http/anonymous-body-limit.ts';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from '../http/session-cookie.ts';
import type { PasswordResetService } from './password-reset-service.ts';
import { SESSION_LIFETIME_MS, type SessionService, type StartedSession } from './session-service.ts';
import type { SetupService } from './setup-service.ts';

export interface SessionRoutesOptions {
  sessions: SessionService;
  setup: SetupService;
  passwordResets: PasswordResetService;
  /** LOUPE_PUBLIC_URL: its scheme decides `Secure`, its origin is where sign-ins may come from. */
  publicUrl: string;
}

/**
 * The dashboard's own endpoints (DESIGN.md §5), outside the operation registry: who is
 * signed in, sign in, sign out, the first run, and resetting a forgotten password. Answers
 * are never cached.
 */
export function registerSessionRoutes(app: FastifyInstance, options: SessionRoutesOptions): void {
  const { sessions, setup, passwordResets } = options;
  const secure = new URL(options.publicUrl).protocol === 'https:';
  const publicOrigin = new URL(options.publicUrl).origin;

  const answer = (reply: FastifyReply, status: number, session: Session) =>
    reply.code(status).header('cache-control', 'no-store').send(session);
  const setCookie = (reply: FastifyReply, started: Pick<StartedSession, 'token'>) =>
    reply.header('set-cookie', sessionCookie(started.token, { maxAgeSeconds: SESSION_LIFETIME_MS / 1000, secure }));
  const forget = (reply: FastifyReply) => reply.header('set-cookie', clearedSessionCookie({ secure }));

  /**
   * Signing in and the first run have no CSRF token yet. Their bodies are JSON only, which
   * another site's form cannot send and its scripts cannot without our CORS consent; a
   * browser's Origin, when it names another site, is refused as well (login CSRF).
   */
  const sameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const host = URL.canParse(origin) ? new URL(origin).host : undefined;
    if (origin !== publicOrigin && host !== request.headers.host) {
      throw new LoupeError('csrf_failed', { message: 'Sign in from the dashboard of this server.' });
    }
  };

  app.get(sessionPaths.session, async (request, reply) => {
    const token = readSessionCookie(request.headers.cookie);
    const current = token === undefined ? undefined : await sessions.current(token);
    if (!current) {
      if (token !== undefined) forget(reply);
      throw new LoupeError('unauthorized', { message: 'Not signed in.' });
    }
    if (current.renewed) setCookie(reply, { token: token as string });
    return answer(reply, 200, current.session);
  });

  app.post(sessionPaths.session, async (request, reply) => {
    sameOrigin(request);
    const input = parseOrThrow(SignIn, request.body ?? undefined);
    const previous = readSessionCookie(request.headers.cookie);
    const started = await sessions.signIn(input);
    // A new token on every sign-in (no session fixation); the one it replaces ends.
    if (previous !== undefined) await sessions.signOut(previous);
    setCookie(reply, started);
    return answer(reply, 200, started.session);
  });

  app.delete(sessionPaths.session, async (request, reply) => {
    const token = readSessionCookie(request.headers.cookie);
    if (token !== undefined && (await sessions.userOf(token))) {
      const given = request.headers[CSRF_HEADER];
      if (!sessions.csrfMatches(token, Array.isArray(given) ? given[0] : given)) throw new LoupeError('csrf_failed');
      await sessions.signOut(token);
    }
    // Signing out of a session that has already ended is not an error: the cookie goes either way.
    forget(reply);
    return reply.header('cache-control', 'no-store').send({ deleted: true });
  });

  app.get(sessionPaths.setup, async (_request, reply) => reply.header('cache-control', 'no-store').send(await setup.state()));

  app.post(sessionPaths.setup, async (request, reply) => {
    sameOrigin(request);
    const input = parseOrThrow(Setup, request.body ?? undefined);
    const { userId } = await setup.complete(input);
    const started = await sessions.start(userId);
    setCookie(reply, started);
    return answer(reply, 201, started.session);
  });

  app.post(sessionPaths.passwordResets, { bodyLimit: ANONYMOUS_BODY_LIMIT }, async (request, reply) => {
    sameOrigin(request);
    const input = parseOrThrow(RequestPasswordReset, request.body ?? undefined);
    // The peer's address: behind a proxy every client shares it, which the per-client bound allows for.
    return reply
      .code(202)
      .header('cache-control', 'no-store')
      .send(await passwordResets.request(input, request.ip));
  });

  app.post(sessionPaths.passwordResetCompletion, { bodyLimit: ANONYMOUS_BODY_LIMIT }, async (request, reply) => {
    sameOrigin(request);
    const input = parseOrThrow(CompletePasswordReset, request.body ?? undefined);
    // No cookie is set: the new password signs in like any other, and nobody is signed in by a link.
    return reply.header('cache-control', 'no-store').send(await passwordResets.complete(input));
  });
}
