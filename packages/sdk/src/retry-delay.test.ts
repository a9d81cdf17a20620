import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACKOFF_BASE_MS, MAX_RETRY_DELAY_MS, retryDelay } from './retry-delay.ts';

const now = Date.parse('2026-05-01T12:00:00Z');

describe('retryDelay', () => {
  it('honours Retry-After in seconds', () => {
    assert.equal(retryDelay('0', 0, now), 0);
    assert.equal(retryDelay('7', 2, now), 7000);
  });

  it('honours Retry-After as an HTTP date, a past one as no wait', () => {
    assert.equal(retryDelay('Fri, 01 May 2026 12:00:05 GMT', 0, now), 5000);
    assert.equal(retryDelay('Fri, 01 May 2026 11:00:00 GMT', 0, now), 0);
  });

  it(`answers undefined (do not retry) beyond ${MAX_RETRY_DELAY_MS} ms`, () => {
    assert.equal(retryDelay(String(MAX_RETRY_DELAY_MS / 1000), 0, now), MAX_RETRY_DELAY_MS);
    assert.equal(retryDelay(String(MAX_RETRY_DELAY_MS / 1000 + 1), 0, now), undefined);
    assert.equal(retryDelay('Fri, 01 May 2026 13:00:00 GMT', 0, now), undefined);
  });

  it('backs off exponentially with jitter without a usable Retry-After', () => {
    for (const header of [null, '', 'soon', '-1', '1.5']) {
      assert.equal(
        retryDelay(header, 0, now, () => 0),
        BACKOFF_BASE_MS / 2,
      );
      assert.equal(
        retryDelay(header, 0, now, () => 1),
        BACKOFF_BASE_MS,
      );
    }
    assert.equal(
      retryDelay(null, 3, now, () => 1),
      BACKOFF_BASE_MS * 8,
    );
    assert.equal(
      retryDelay(null, 3, now, () => 0.5),
      BACKOFF_BASE_MS * 6,
    );
  });

  it(`caps the backoff at ${MAX_RETRY_DELAY_MS} ms`, () => {
    assert.equal(
      retryDelay(null, 20, now, () => 1),
      MAX_RETRY_DELAY_MS,
    );
    assert.equal(
      retryDelay(null, 20, now, () => 0),
      MAX_RETRY_DELAY_MS / 2,
    );
  });
});
