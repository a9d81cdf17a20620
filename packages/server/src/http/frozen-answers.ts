/**
 * The JSON of answers that cannot change, made once. A service that keeps answers to serve them
 * again (search keeps recent pages of hits) freezes them; serialising the same ten hits for
 * every request asking them again was a twelfth of the event loop's time under a search load
 * of repeated queries (bench/search.ts, profiled). Held as long as the answer itself is.
 */
const serialized = new WeakMap<object, string>();

/** The answer's JSON if it is frozen (kept from its first time), else undefined: serialise it as usual. */
export function frozenAnswerJson(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || !Object.isFrozen(answer)) return undefined;
  let json = serialized.get(answer);
  if (json === undefined) {
    json = JSON.stringify(answer);
    serialized.set(answer, json);
  }
  return json;
}

/** Freezes an answer and every object and array in it, so that its JSON, once made, stays true. */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
