import type { NumberTest } from '@loupe/contract';

/** Whether `n` passes a number test: `between` includes both ends, `outside` is its complement. */
export function passesNumberTest(test: NumberTest, n: number): boolean {
  switch (test.op) {
    case 'lt':
      return n < test.value;
    case 'lte':
      return n <= test.value;
    case 'gt':
      return n > test.value;
    case 'gte':
      return n >= test.value;
    case 'eq':
      return n === test.value;
    case 'neq':
      return n !== test.value;
    case 'between':
      return n >= test.value[0] && n <= test.value[1];
    case 'outside':
      return n < test.value[0] || n > test.value[1];
  }
}
