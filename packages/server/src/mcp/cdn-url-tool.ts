import { Id, LoupeError, PresetName, SignUrlRequest, Timestamp } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { z } from 'zod';
import type { LocalTool } from './mcp-tools.ts';
import { openClient } from './tool-call.ts';
import { toolSuccess } from './tool-result.ts';
import { toJsonObjectSchema } from './tool-schemas.ts';

const Input = z.strictObject({
  projectId: Id,
  imageId: Id,
  preset: PresetName.optional().describe("A preset's name; the original when left out."),
  expiresIn: SignUrlRequest.shape.expiresIn,
});

const Output = z.object({
  url: z.string().describe('The absolute CDN URL, to put in an <img src> or fetch.'),
  signed: z.boolean().describe('Whether the URL carries a signature (the project has signing on).'),
  expiresAt: Timestamp.nullable(),
});

/** The project's preset names, every page of them. */
async function presetNames(client: LoupeClient, projectId: string, signal: AbortSignal): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.page.listPresets({ projectId, limit: 100, ...(cursor ? { cursor } : {}) }, { signal });
    names.push(...page.items.map((preset) => preset.name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return names;
}

/**
 * `cdn_url`: the delivery URL of an image through a preset. Where the project signs URLs the
 * API's signUrl signs it (the server's signing code, secret and public address); otherwise it
 * is the image's own CDN URL with the preset as `t`.
 */
export function cdnUrlTool(): LocalTool {
  return {
    name: 'cdn_url',
    title: 'Build a CDN URL',
    description:
      "Builds the CDN URL delivering an image through a preset (or the original), signed when the project signs its URLs (then expiresIn, in seconds, makes it expire). An unknown preset is refused with the project's preset names. Spends no credits.",
    input: Input,
    inputSchema: toJsonObjectSchema(Input, 'input'),
    outputSchema: toJsonObjectSchema(Output, 'output'),
    annotations: { title: 'Build a CDN URL', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    toolset: 'images',
    run: async (args, { connection, signal }) => {
      const { projectId, imageId, preset, expiresIn } = args as z.output<typeof Input>;
      const client = openClient(connection, signal);
      const image = await client.getImage({ projectId, imageId }, { signal });
      if (preset !== undefined) {
        const names = await presetNames(client, projectId, signal);
        if (!names.includes(preset)) {
          throw new LoupeError('not_found', {
            message: `No preset ${preset} in this project; its presets: ${names.join(', ') || 'none (create_preset makes one)'}.`,
            extra: { presets: names },
          });
        }
      }
      const params: Record<string, string> = preset === undefined ? {} : { t: preset };
      const signing = await client.getSigning({ projectId }, { signal });
      if (signing.enabled) {
        const signed = await client.signUrl({ projectId, body: { path: image.path, params, expiresIn } }, { signal });
        return toolSuccess({ url: signed.url, signed: true, expiresAt: signed.expiresAt });
      }
      if (expiresIn !== undefined) {
        throw new LoupeError('validation_failed', {
          message: 'Only a signed URL can expire, and this project does not sign its URLs (update_signing turns signing on).',
          details: { fieldErrors: { expiresIn: ['Needs signing on.'] }, formErrors: [] },
        });
      }
      const url = new URL(image.url);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return toolSuccess({ url: url.href, signed: false, expiresAt: null });
    },
  };
}
