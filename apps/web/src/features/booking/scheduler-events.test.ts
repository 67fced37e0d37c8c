import { afterEach, describe, expect, it } from 'vitest';
import { claimSchedulerEvent, forgetSchedulerEvents } from './scheduler-events';

describe('scheduler events handled once in 10 minutes', () => {
  afterEach(forgetSchedulerEvents);

  it('claims an event id once, again only after 10 minutes', () => {
    const start = 1_800_000_000_000;
    expect(claimSchedulerEvent('a', start)).toBe(true);
    expect(claimSchedulerEvent('a', start + 1_000)).toBe(false);
    expect(claimSchedulerEvent('b', start + 1_000)).toBe(true);
    expect(claimSchedulerEvent('a', start + 599_999)).toBe(false);
    expect(claimSchedulerEvent('a', start + 600_000)).toBe(true);
  });
});
