import { channel } from 'node:diagnostics_channel';
import { LoupeError } from '@loupe/contract';
import { wallClock } from './wall-clock.ts';

/** Published with `{ workspaceId }` when a preview has passed the gate and begins running its rules. */
export const PREVIEW_STARTED = 'loupe:rule-pack-preview:started';
const started = channel(PREVIEW_STARTED);

/**
 * One rule pack preview at a time per workspace: a preview holds a rule thread up to its
 * deadline, so members (viewers too: a saved pack is theirs to preview) cannot fill the rule
 * threads with previews and hold back report builds. A second preview while one runs is
 * answered 429 with Retry-After, the seconds left before the running one's deadline.
 */
export class PreviewGate {
  /** Per workspace with a preview running: when its deadline comes (wallClock). */
  readonly #running = new Map<string, number>();

  /** Lets the workspace's preview in, or refuses it; `release` once the preview is done, however it ended. */
  enter(workspaceId: string, deadlineMs: number): { release(): void } {
    const deadlineAt = this.#running.get(workspaceId);
    if (deadlineAt !== undefined) {
      throw new LoupeError('rate_limited', {
        message: 'A preview of a rule pack is already running in this workspace: retry once it has answered.',
        extra: { retryAfter: Math.max(1, Math.ceil((deadlineAt - wallClock()) / 1000)) },
      });
    }
    const entry = wallClock() + deadlineMs;
    this.#running.set(workspaceId, entry);
    if (started.hasSubscribers) started.publish({ workspaceId });
    return {
      release: () => {
        if (this.#running.get(workspaceId) === entry) this.#running.delete(workspaceId);
      },
    };
  }
}
