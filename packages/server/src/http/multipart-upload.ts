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
  try {
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
  } catch (error) {
    throw malformed(error);
  }
  if (!file) throw fieldError(FILE_FIELD, 'A file is required.');
  return { file, fields: parseOrThrow(fields, values) };
}

/**
 * busboy's complaints about the body itself (no boundary, cut short, a malformed part header)
 * are plain Errors: the client's mistake, 400. Limits and our own refusals carry a code.
 */
function malformed(error: unknown): unknown {
  if (error instanceof LoupeError || !(error instanceof Error) || 'code' in error) return error;
  return new LoupeError('validation_failed', { message: `The multipart body is malformed: ${error.message}.` });
}

function fieldError(field: string, message: string): LoupeError {
  return new LoupeError('validation_failed', { details: { fieldErrors: { [field]: [message] }, formErrors: [] } });
}
