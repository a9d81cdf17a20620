import { type TransformName, transformFields, transformNames, transformShortNames } from '@loupe/contract';

/**
 * One control of the preset editor per transform parameter, read from the contract's zod
 * schemas (`transformFields`): a parameter added there appears in the editor with the right
 * control and range, and nothing here lists the parameters a second time.
 */
export type TransformControl = {
  name: TransformName;
  label: string;
  /** The schema's description. */
  description: string;
  /** The name in a CDN query (`w` for width). */
  queryName: string;
} & (
  | {
      kind: 'number';
      min: number;
      max: number;
      step: number;
      /** Words the parameter takes besides a number (`max` for radius). */
      keywords: string[];
    }
  | { kind: 'select'; options: (string | number)[] }
  | { kind: 'boolean' }
  | { kind: 'colour' }
  | { kind: 'text' }
);

/** What zod v4 schemas expose at run time, as far as this module reads them. */
interface SchemaShape {
  def: { type: string };
  description?: string;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  /** An enum's values, or a union's member schemas. */
  options?: readonly unknown[];
  /** A literal's values. */
  values?: ReadonlySet<unknown>;
  safeParse(value: unknown): { success: boolean };
}

/** Words a plain label would not spell out. */
const LABELS: { readonly [N in TransformName]?: string } = {
  bg: 'Background',
  dpr: 'Pixel ratio',
  overlay: 'Overlay image',
  overlayX: 'Overlay X offset',
  overlayY: 'Overlay Y offset',
};

function labelOf(name: TransformName): string {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return LABELS[name] ?? spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A step that gives about a hundred positions between min and max, at most 1. */
function stepOf(min: number, max: number, integer: boolean): number {
  if (integer) return 1;
  return Math.min(1, 10 ** Math.floor(Math.log10((max - min) / 100)));
}

function numberControl(schema: SchemaShape, keywords: string[]) {
  const min = schema.minValue ?? 0;
  const max = schema.maxValue ?? 100;
  return { kind: 'number' as const, min, max, step: stepOf(min, max, schema.isInt === true), keywords };
}

function controlOf(schema: SchemaShape) {
  switch (schema.def.type) {
    case 'number':
      return numberControl(schema, []);
    case 'boolean':
      return { kind: 'boolean' as const };
    case 'enum':
      return { kind: 'select' as const, options: [...(schema.options as (string | number)[])] };
    case 'string':
      // A string that takes six hex digits and refuses words is a colour (the `bg` of DESIGN.md §7).
      return schema.safeParse('00ff7f').success && !schema.safeParse('a colour').success
        ? { kind: 'colour' as const }
        : { kind: 'text' as const };
    case 'union': {
      const members = (schema.options ?? []) as SchemaShape[];
      const literals = members.filter((member) => member.def.type === 'literal').flatMap((member) => [...(member.values ?? [])]) as (
        | string
        | number
      )[];
      const number = members.find((member) => member.def.type === 'number');
      if (number) return numberControl(number, literals.map(String));
      if (literals.length === members.length) return { kind: 'select' as const, options: literals };
      return { kind: 'text' as const };
    }
    default:
      return { kind: 'text' as const };
  }
}

export const transformControls: TransformControl[] = transformNames.map((name) => {
  const schema = transformFields[name] as unknown as SchemaShape;
  return {
    name,
    label: labelOf(name),
    description: schema.description ?? '',
    queryName: transformShortNames[name] ?? name,
    ...controlOf(schema),
  };
});

/** The field a CDN query name stands for (`w` → width), or undefined for `t`, `s` and unknown names. */
export function fieldOfQueryName(queryName: string): TransformName | undefined {
  return transformControls.find((control) => control.queryName === queryName || control.name === queryName)?.name;
}
