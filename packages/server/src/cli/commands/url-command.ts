import { type TransformName, type Transforms, transformShortNames } from '@loupe/contract';
import { cdnUrl } from '@loupe/sdk';
import type { Command } from 'commander';
import { imageProjectId, imageProjectSlug } from '../project-references.ts';
import { parseTransforms, transformHelp } from '../transform-flags.ts';
import { repeatable, usageError, userAction, wholeNumber, withClientFlags } from '../user-command.ts';

interface UrlFlags {
  preset?: string;
  transform?: string[];
  secret?: string;
  sign?: boolean;
  expiresIn?: number;
  cdn?: string;
}

interface BuiltUrl {
  url: string;
  /** When a signed URL stops working; null when it never does or is not signed. */
  expiresAt: string | null;
}

/** The same query cdnUrl writes: preset as `t`, short names where the CDN has them. */
function cdnParams(preset: string | undefined, transforms: Record<string, string | number | boolean>) {
  const params: Record<string, string | number | boolean> = preset === undefined ? {} : { t: preset };
  for (const [name, value] of Object.entries(transforms)) params[transformShortNames[name as TransformName] ?? name] = value;
  return params;
}

/** `loupe url`: a CDN URL for an image, signed with the project's secret or by the server. */
export function registerUrlCommand(program: Command): void {
  withClientFlags(
    program
      .command('url')
      .description("Build an image's CDN URL: preset, transforms, signature.")
      .addHelpText(
        'after',
        "\nSigned with the project's secret (--secret: built here, no key needed) or by the server (--sign: needs a key).",
      ),
  )
    .argument('<project>', "the project's slug (as in CDN URLs) or id (looked up with the key)")
    .argument('<path>', "the image's path in the project, e.g. blog/cover.jpg")
    .option('--preset <name>', 'apply a preset (t=<name>)')
    .option('-t, --transform <name=value>', transformHelp, repeatable)
    .option('--secret <secret>', "sign with the project's signing secret (env LOUPE_SIGNING_SECRET)")
    .option('--sign', 'have the server sign the URL with the current secret (needs images:read)')
    .option('--expires-in <seconds>', 'a signed URL stops working after this many seconds', wholeNumber(1, 365 * 24 * 3600))
    .option('--cdn <origin>', 'the CDN origin (default: the server URL)')
    .addHelpText(
      'after',
      '\nExamples:\n  loupe url blog covers/spring.jpg --preset thumb\n  loupe url blog covers/spring.jpg -t w=300 -t f=webp --secret "$SECRET" --expires-in 3600',
    )
    .action(
      userAction<UrlFlags>(async ({ session, output }, [project, path], options) => {
        const secret = options.secret ?? (process.env.LOUPE_SIGNING_SECRET || undefined);
        if (options.sign && secret) throw usageError('sign', 'Use --sign (the server signs) or --secret (signed here), not both.');
        if (options.expiresIn !== undefined && !options.sign && !secret) {
          throw usageError('expires-in', 'Only a signed URL expires: add --secret or --sign.');
        }
        const transforms = parseTransforms(options.transform);
        let built: BuiltUrl;
        if (options.sign) {
          const projectId = await imageProjectId(session.client(), project as string);
          const signed = await session.client().signUrl({
            projectId,
            body: { path: path as string, params: cdnParams(options.preset, transforms), expiresIn: options.expiresIn },
          });
          built = { url: signed.url, expiresAt: signed.expiresAt };
        } else {
          const now = Date.now();
          const url = await cdnUrl({
            baseUrl: options.cdn ?? session.baseUrl,
            project: await imageProjectSlug(() => session.client(), project as string),
            path: path as string,
            preset: options.preset,
            transforms: transforms as Partial<Transforms>,
            sign: secret ? { secret, expiresIn: options.expiresIn } : undefined,
            now: () => now,
          });
          const expiresAt =
            secret && options.expiresIn ? new Date((Math.floor(now / 1000) + options.expiresIn) * 1000).toISOString() : null;
          built = { url, expiresAt };
        }
        output.result(built, (b) => b.url);
      }),
    );
}
