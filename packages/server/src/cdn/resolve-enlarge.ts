import type { Transforms } from '@loupe/contract';

/**
 * The transforms with `enlarge` resolved against the project's default. The variant key is
 * made from these, so it names the enlargement a variant was made under: flipping the
 * project's default makes new variants rather than serving the ones made under the other.
 * `allow` is what the pipeline does with `enlarge` unset, so it is left out: the keys of
 * variants made before the setting existed stay valid. Without width or height nothing is
 * resized, and `enlarge` makes no variant of its own.
 */
export function resolveEnlarge(transforms: Partial<Transforms>, projectDefault: NonNullable<Transforms['enlarge']>): Partial<Transforms> {
  const { enlarge = projectDefault, ...rest } = transforms;
  const resizes = rest.width !== undefined || rest.height !== undefined;
  return resizes && enlarge === 'never' ? { ...rest, enlarge } : rest;
}
