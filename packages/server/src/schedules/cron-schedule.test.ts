import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { CronSchedule } from './cron-schedule.ts';

const from = new Date('2040-01-01T00:00:00.000Z');
const next = (cron: string, timezone: string, after: string) => CronSchedule.of(cron, timezone).nextAfter(new Date(after))?.toISOString();

function refusal(cron: string): string {
  try {
    CronSchedule.parse(cron, 'UTC', from);
  } catch (error) {
    assert.ok(error instanceof LoupeError && error.code === 'validation_failed');
    return error.details?.fieldErrors.cron?.join(' ') ?? '';
  }
  return 'accepted';
}

describe('cron schedules', () => {
  it('answers the first run strictly after the instant', () => {
    assert.equal(next('0 3 * * *', 'UTC', '2040-01-01T03:00:00.000Z'), '2040-01-02T03:00:00.000Z');
    assert.equal(next('0 3 * * *', 'UTC', '2040-01-01T02:59:59.999Z'), '2040-01-01T03:00:00.000Z');
  });

  it('runs a time skipped by the spring change once, at the first time after the gap', () => {
    // 2040-03-25 02:30 does not exist in Berlin: clocks go from 02:00 CET to 03:00 CEST.
    assert.equal(next('30 2 * * *', 'Europe/Berlin', '2040-03-24T12:00:00.000Z'), '2040-03-25T01:00:00.000Z');
    assert.equal(next('30 2 * * *', 'Europe/Berlin', '2040-03-25T01:00:00.000Z'), '2040-03-26T00:30:00.000Z');
  });

  it('runs a time repeated by the autumn change once', () => {
    // 2040-10-28 02:30 happens twice in Berlin (CEST, then CET).
    assert.equal(next('30 2 * * *', 'Europe/Berlin', '2040-10-27T12:00:00.000Z'), '2040-10-28T00:30:00.000Z');
    assert.equal(next('30 2 * * *', 'Europe/Berlin', '2040-10-28T00:30:00.000Z'), '2040-10-29T01:30:00.000Z');
  });

  it('accepts runs exactly 5 minutes apart and refuses any closer, in 5 or 6 fields', () => {
    for (const cron of ['*/5 * * * *', '0 */5 * * * *', '0,5 3 * * *', '@hourly', '0 3 * * 1#2'])
      assert.equal(refusal(cron), 'accepted', cron);
    for (const cron of ['*/4 * * * *', '0,59 */5 * * * *', '0,4 3 * * *', '*/10 * * * * *', '0,58 0,23 * * *']) {
      assert.match(refusal(cron), /more often than every 5 minutes/, cron);
    }
  });

  it('refuses 4 or 7 fields, values out of range, and a date that never comes', () => {
    for (const cron of ['* * * *', '0 0 0 * * * *', '60 * * * *', '0 0 32 * *', 'every day'])
      assert.match(refusal(cron), /5 or 6 fields/, cron);
    assert.match(refusal('0 0 31 4 *'), /never comes due/);
  });
});
