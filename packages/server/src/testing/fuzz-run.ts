import { errorCodes } from '@loupe/contract';
import { type RawAnswer, type RawRequest, rawRequest } from './raw-request.ts';

/** One request of a fuzz pass. */
export interface SentCase {
  label: string;
  request: RawRequest;
}

const CONCURRENT_REQUESTS = 8;

/** What keeps a 4xx answer from being DESIGN.md §4's error body, or undefined when it is one (or not a 4xx). */
export function errorBodyProblem(answer: RawAnswer): string | undefined {
  if (answer.status < 400 || answer.status >= 500) return undefined;
  if (!answer.contentType.includes('application/json')) return `a ${answer.status} that is not JSON (${answer.contentType})`;
  let body: { error?: unknown; code?: unknown; details?: { fieldErrors?: unknown; formErrors?: unknown } };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} whose JSON does not parse`;
  }
  if (typeof body.error !== 'string' || !errorCodes.includes(body.code as never)) return `a ${answer.status} without the §4 error body`;
  if (body.details !== undefined && (typeof body.details.fieldErrors !== 'object' || !Array.isArray(body.details.formErrors))) {
    return `a ${answer.status} whose details are not { fieldErrors, formErrors }`;
  }
  return undefined;
}

const cut = (text: string | Buffer | undefined, length: number) => {
  const value = String(text ?? '');
  return value.length > length ? `${value.slice(0, length)}…(${value.length} chars)` : value;
};

/**
 * Sends every case to `origin`, a few at a time, and answers a description of each whose
 * answer `problemWith` finds wrong (a request that gets no answer is a 599).
 */
export async function runFuzzCases<C extends SentCase>(
  origin: string,
  cases: readonly C[],
  problemWith: (answer: RawAnswer, fuzz: C) => string | undefined,
  name: string,
): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const work = async () => {
    while (next < cases.length) {
      const fuzz = cases[next++]!;
      const answer = await rawRequest(origin, fuzz.request).catch((error: Error) => ({
        status: 599,
        contentType: '',
        text: `no answer: ${error.message}`,
      }));
      const problem = problemWith(answer, fuzz);
      if (!problem) continue;
      const { method, path, headers, body, wire } = fuzz.request;
      failures.push(
        `${name} — ${fuzz.label}: ${problem}\n    ${method} ${cut(path, 200)}\n    headers ${cut(JSON.stringify(headers), 300)}\n    body ${cut(wire ?? body, 300)}\n    → ${answer.status} ${cut(answer.text, 400)}`,
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, work));
  return failures;
}
