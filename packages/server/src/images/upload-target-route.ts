import type { FastifyInstance } from 'fastify';
import { checkBeforeBody } from '../http/check-before-body.ts';
import type { UploadSlotService } from './upload-slot-service.ts';

/**
 * `PUT <uploadUrl>`: the second step of the two-step upload. The secret in the URL is the
 * credential (like a presigned URL), and the body is the file as it is, in any media type.
 * The secret is checked before the body is read: a PUT to no live slot is answered at once.
 */
export async function registerUploadTarget(app: FastifyInstance, slots: UploadSlotService, maxBytes: number): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
    scope.put<{ Params: { token: string } }>(
      '/api/images/uploads/:token',
      { onRequest: checkBeforeBody((request) => slots.checkLive((request.params as { token: string }).token)) },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return slots.receive(request.params.token, body, request.headers['content-type'] ?? 'application/octet-stream');
      },
    );
  });
}
