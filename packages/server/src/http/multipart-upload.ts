import { LoupeError, parseOrThrow, type UploadedFile } from '@loupe/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

const FILE_FIELD = 'file';

/**
 * Reads a multipart upload: exactly one file part named `file`, read into memory within the
 * upload limit (@fastify/multipart answers 413 beyond it), and the other parts validated by
 * the operation's `fields` schema.
 */
export async function readMultipartUpload(
  request: FastifyRequest,
  fields: z.ZodObject,
): Promise<{ file: UploadedFile; fields: Record<string, unknown> }> {
  let file: UploadedFile | undefined;
  const values: Record<string, unknown> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== FILE_FIELD || file) {
        await part.toBuffer();
        throw fieldError(part.fieldname, `Send one file, in the part named "${FILE_FIELD}".`);
      }
      file = { filename: part.filename, contentType: part.mimetype, data: await part.toBuffer() };
    } else {
      values[part.fieldname] = part.value;
    }
  }
  if (!file) throw fieldError(FILE_FIELD, 'A file is required.');
  return { file, fields: parseOrThrow(fields, values) };
}

function fieldError(field: string, message: string): LoupeError {
  return new LoupeError('validation_failed', { details: { fieldErrors: { [field]: [message] }, formErrors: [] } });
}
