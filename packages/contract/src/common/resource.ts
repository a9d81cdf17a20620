import { z } from 'zod';
import { errorCodes } from './errors.ts';

/**
 * IDs are UUIDs (v7, time-ordered) and timestamps ISO 8601 UTC with milliseconds (DESIGN.md §4).
 * UUIDs compare case-insensitively (RFC 9562): an id in capitals is read in the lower case stored.
 */
export const Id = z.uuid().overwrite((id) => id.toLowerCase());
export const Timestamp = z.iso.datetime();

export const Deleted = z.object({ deleted: z.literal(true) });

export const ErrorBodySchema = z
  .object({
    error: z.string().describe('A message for humans.'),
    code: z.enum(errorCodes).describe('A stable machine-readable code.'),
    details: z
      .object({
        fieldErrors: z.record(z.string(), z.array(z.string())),
        formErrors: z.array(z.string()),
      })
      .optional()
      .describe('Validation failures by dotted field path.'),
    requestId: z.string().optional().describe('Present on 500 answers; quote it when reporting a problem.'),
  })
  .catchall(z.unknown())
  .meta({ id: 'Error' });
