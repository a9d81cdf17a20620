/**
 * Now, in milliseconds since the epoch, comparable between threads: each thread's
 * `performance.now()` counts from that thread's own start, which `timeOrigin` says.
 */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}
