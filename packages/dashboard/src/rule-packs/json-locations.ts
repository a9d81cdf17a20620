/** A place in a text: 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

export type LocatedJson =
  | {
      ok: true;
      value: unknown;
      /** Dotted path (`rules.2.when.all.1`, '' for the whole) → where its member name, or its value in an array, starts. */
      positions: Map<string, TextPosition>;
    }
  | { ok: false; message: string; position: TextPosition };

class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Parses JSON as `JSON.parse` does, and also notes where each value starts, so a message about
 * `pack.rules.2.when.all.1.test` can point at its line. A syntax error comes with its line and
 * column (browsers' own messages do not all say where).
 */
export function locateJson(text: string): LocatedJson {
  const positions = new Map<string, TextPosition>();
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const positionOf = (offset: number): TextPosition => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };

  let at = 0;
  const space = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
  };
  const describe = () => (at >= text.length ? 'the text ended' : `found ${JSON.stringify(text[at])}`);
  const expect = (char: string) => {
    if (text[at] !== char) throw new JsonSyntaxError(`Expected ${JSON.stringify(char)}, ${describe()}.`, at);
    at++;
  };

  const string = (): string => {
    const start = at;
    expect('"');
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20)
        throw new JsonSyntaxError('A line break or control character inside a string: write it as \\n.', at);
      at++;
    }
    if (at >= text.length) throw new JsonSyntaxError('A string is not closed: a " is missing.', start);
    at++;
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      throw new JsonSyntaxError('A string holds an escape that JSON does not know (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX).', start);
    }
  };

  const value = (path: string): unknown => {
    space();
    const char = text[at];
    if (char === '{') return object(path);
    if (char === '[') return array(path);
    if (char === '"') return string();
    const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at, at + 400));
    if (!literal) {
      const hint =
        char === "'" ? ' Strings take double quotes.' : char === '}' || char === ']' ? ' Is there a comma too many before it?' : '';
      throw new JsonSyntaxError(`Expected a value, ${describe()}.${hint}`, at);
    }
    at += literal[0].length;
    return JSON.parse(literal[0]) as unknown;
  };

  const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

  const object = (path: string): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    expect('{');
    space();
    if (text[at] === '}') {
      at++;
      return result;
    }
    for (;;) {
      space();
      const keyAt = at;
      if (text[at] !== '"')
        throw new JsonSyntaxError(
          `Expected a member name in double quotes, ${describe()}.${text[at] === '}' ? ' Is there a comma too many before it?' : ''}`,
          at,
        );
      const key = string();
      const memberPath = child(path, key);
      positions.set(memberPath, positionOf(keyAt));
      space();
      expect(':');
      result[key] = value(memberPath);
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') {
        at++;
        return result;
      }
      throw new JsonSyntaxError(`Expected "," or "}" after a member, ${describe()}.`, at);
    }
  };

  const array = (path: string): unknown[] => {
    const result: unknown[] = [];
    expect('[');
    space();
    if (text[at] === ']') {
      at++;
      return result;
    }
    for (;;) {
      space();
      const itemPath = child(path, String(result.length));
      positions.set(itemPath, positionOf(at));
      result.push(value(itemPath));
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') {
        at++;
        return result;
      }
      throw new JsonSyntaxError(`Expected "," or "]" after an item, ${describe()}.`, at);
    }
  };

  try {
    space();
    positions.set('', positionOf(at));
    const parsed = value('');
    space();
    if (at < text.length) throw new JsonSyntaxError(`Unexpected text after the JSON value: ${describe()}.`, at);
    return { ok: true, value: parsed, positions };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, message: error.message, position: positionOf(Math.min(error.offset, text.length)) };
  }
}

/**
 * Where `path` is, or the nearest enclosing value that exists (a missing member is reported
 * at the object that lacks it), with whether it was found exactly.
 */
export function nearestPosition(
  positions: Map<string, TextPosition>,
  path: string,
): { position: TextPosition; exact: boolean } | undefined {
  let current = path;
  for (;;) {
    const position = positions.get(current);
    if (position) return { position, exact: current === path };
    if (current === '') return undefined;
    const dot = current.lastIndexOf('.');
    current = dot === -1 ? '' : current.slice(0, dot);
  }
}
