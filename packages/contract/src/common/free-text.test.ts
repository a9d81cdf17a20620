import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImagePath } from '../images/image.ts';
import { type OperationDefinition, operations } from '../index.ts';
import { Setup } from '../sessions/session.ts';
import { freeText } from './free-text.ts';
import { freeTextFields } from './free-text-fields.ts';
import { validationDetails } from './validation.ts';

/** One of each kind of character a name may not hold, as a reader would name it. */
const refused: readonly [string, string][] = [
  ['NUL', '\u0000'],
  ['escape (C0)', '\u001b'],
  ['bell (C0)', '\u0007'],
  ['carriage return', '\r'],
  ['DEL', '\u007f'],
  ['next line (C1)', '\u0085'],
  ['control sequence introducer (C1)', '\u009b'],
  ['right-to-left override', '\u202e'],
  ['left-to-right embedding', '\u202a'],
  ['pop directional formatting', '\u202c'],
  ['left-to-right isolate', '\u2066'],
  ['pop directional isolate', '\u2069'],
  ['right-to-left mark', '\u200f'],
  ['Arabic letter mark', '\u061c'],
  ['zero-width space', '\u200b'],
  ['byte order mark', '\ufeff'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
  ['lone surrogate', '\ud800'],
];
/** Refused in a name, allowed in multi-line text (descriptions, alt text, rule help). */
const lineBreaks: readonly [string, string][] = [
  ['newline', '\n'],
  ['tab', '\t'],
];
const UNSAFE = /^Must not contain control characters or invisible formatting characters/;

const named = (operations as readonly OperationDefinition[]).filter((operation) => freeTextFields(operation).length > 0);

function messagesAt(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, value: unknown, path: string): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return validationDetails(result.error as never).fieldErrors[path] ?? [];
}

describe('free-text names and labels', () => {
  it('are found in the operations that take them, from the registry', () => {
    const ids = named.map((operation) => operation.id);
    for (const id of [
      'createImageProject',
      'updateImage',
      'listImages',
      'createRulePack',
      'createAuditProject',
      'createApiKey',
      'updateTeam',
      'acceptInvite',
    ]) {
      assert.ok(ids.includes(id), `${id} has a name field`);
    }
  });

  for (const operation of named) {
    const fields = freeTextFields(operation);
    it(`${operation.id} refuses every control and invisible formatting character in ${fields.map((f) => f.path).join(', ')}`, () => {
      for (const field of fields) {
        const schema = field.part === 'body' ? operation.body! : field.part === 'query' ? operation.query! : operation.upload!.fields;
        const kinds = field.multiline ? refused : [...refused, ...lineBreaks];
        for (const [kind, character] of kinds) {
          const messages = messagesAt(schema, field.place(`ab${character}cd`), field.path);
          assert.ok(
            messages.some((message) => UNSAFE.test(message)),
            `${operation.id} ${field.path} takes a ${kind}: ${JSON.stringify(messages)}`,
          );
        }
      }
    });
  }

  it('names the character and where it is', () => {
    const result = freeText({ max: 100 }).safeParse('Invoice 👩‍💻\u202egpj.exe');
    assert.equal(result.success, false);
    assert.equal(
      result.error?.issues[0]?.message,
      'Must not contain control characters or invisible formatting characters such as bidi overrides (U+202E at character 10).',
    );
  });

  it('keeps names in every script, emoji sequences and flags', () => {
    const name = freeText({ max: 100 });
    for (const text of ['Café Zoë', '東京チーム', 'مهندسی‌نرم‌افزار', 'क्‍ष', '👩‍💻 Team', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 Glasgow', '❤️ Ops', 'naïve — “quoted”']) {
      assert.equal(name.parse(text), text);
    }
  });

  it('keeps newlines and tabs in multi-line text only', () => {
    assert.equal(freeText({ max: 100, multiline: true }).parse('Why:\n\tbecause'), 'Why:\n\tbecause');
    assert.equal(freeText({ max: 100 }).safeParse('Why:\n\tbecause').success, false);
  });

  it('refuses them in image paths too, which name images wherever they are listed', () => {
    for (const [kind, character] of refused) {
      assert.equal(ImagePath.safeParse(`invoices/2026/x${character}gpj.png`).success, false, kind);
    }
    assert.equal(ImagePath.parse('fotos/Zoë 👩‍💻.jpg'), 'fotos/Zoë 👩‍💻.jpg');
  });

  it('refuses them in the first-run screen too (user and workspace names)', () => {
    const setup = { name: 'Ann\u202e', email: 'ann@example.test', password: 'long enough', workspaceName: 'Acme\u0000' };
    const { fieldErrors } = validationDetails(Setup.safeParse(setup).error!);
    assert.match(fieldErrors.name?.[0] ?? '', UNSAFE);
    assert.match(fieldErrors.workspaceName?.[0] ?? '', UNSAFE);
  });
});
