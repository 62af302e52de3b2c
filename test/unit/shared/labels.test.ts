// Enumerations of the service as a person reads them.
import assert from 'node:assert/strict';
import {
  sizeLabel,
  alertLabel,
  billingCycleLabel,
  dayLabel,
  permissionLabel,
  planLabel,
  plainWords,
  sandboxStatusLabel,
  spacesPlanLabel,
  subscriptionStatusLabel,
  timeLabel,
  whenLabel,
} from '../../../src/shared/labels';

describe('labels for people', () => {
  it("names a Space's permissions in words", () => {
    assert.deepEqual(['view', 'manage_keys', 'use_playground', 'export_logs'].map(permissionLabel), [
      'view',
      'manage keys',
      'use the playground',
      'export logs',
    ]);
  });

  it('names the plans, statuses and cycles the interface lists', () => {
    assert.equal(planLabel('_TRIAL_'), 'Trial');
    assert.equal(planLabel('_NONE_'), 'No plan');
    assert.equal(spacesPlanLabel('FREE'), 'Free');
    assert.equal(subscriptionStatusLabel('unpaid'), 'Unpaid');
    assert.equal(billingCycleLabel('yearly'), 'Yearly');
    assert.equal(alertLabel('usage_80'), '80% of the hard limit spent');
    assert.equal(alertLabel('soft_limit'), 'Soft spending limit passed');
    assert.equal(alertLabel('usage_75'), 'Usage 75', 'an alert this version does not know, in plain words');
    assert.equal(sandboxStatusLabel('up_to_date'), 'up to date');
  });

  it('says a value it does not know in plain words, and an absent one in words, not a dash', () => {
    assert.equal(planLabel('_ACADEMIC_PLUS_'), 'Academic plus');
    assert.equal(plainWords('up_to_date'), 'Up to date');
    assert.equal(planLabel(null), 'not set');
    assert.equal(sandboxStatusLabel(undefined, 'unknown'), 'unknown');
  });

  it('writes a timestamp as people read it, not as ISO text', () => {
    const at = new Date(2026, 10, 21, 14, 5).toISOString();
    assert.equal(whenLabel(at), '21 Nov 2026, 14:05');
    assert.equal(whenLabel(at, false), '21 Nov 2026');
    assert.equal(whenLabel(null), 'unknown');
    assert.equal(whenLabel('not a date'), 'not a date');
    // Epoch milliseconds (the organization's trial end, the catalogue saved on disk) in the same style.
    assert.equal(whenLabel(new Date(2026, 11, 8, 9, 30).getTime(), false), '8 Dec 2026');
    assert.equal(timeLabel(new Date(2026, 10, 21, 0, 26, 52)), '00:26');
  });

  it("writes the catalogue's days and months in words, whatever the time zone", () => {
    // A day is the same day west of Greenwich too: it is no instant.
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
        process.env.TZ = tz;
        assert.equal(dayLabel('2026-11-21'), '21 Nov 2026', tz);
        assert.equal(dayLabel('2024-05'), 'May 2024', tz);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    assert.equal(dayLabel('soon'), 'soon');
  });

  it("writes a file's size in the unit people read it in, not rounded up to a kilobyte", () => {
    assert.equal(sizeLabel(1), '1 byte');
    assert.equal(sizeLabel(50), '50 bytes');
    assert.equal(sizeLabel(1536), '1.5 KB');
    assert.equal(sizeLabel(2048), '2 KB');
    assert.equal(sizeLabel(200 * 1024), '200 KB');
    assert.equal(sizeLabel(3.4 * 1024 * 1024), '3.4 MB');
  });
});
