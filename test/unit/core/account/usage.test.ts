import { strict as assert } from 'node:assert';
import { appendUsage, dayOf, readUsage, summarizeUsage, type UsageRecord } from '../../../../src/core';

// Offsets as Date#getTimezoneOffset gives them: UTC+2 is -120, New York winter +300.
const plus2 = () => -120;
const utc = () => 0;

describe('usage sums', () => {
  it('puts a reply in the day of the user\'s time zone, across midnight', () => {
    const beforeMidnightUtc = Date.UTC(2026, 10, 22, 23, 30);
    assert.equal(dayOf(beforeMidnightUtc, 0), '2026-11-22');
    assert.equal(dayOf(beforeMidnightUtc, -120), '2026-11-23');
    assert.equal(dayOf(Date.UTC(2026, 10, 23, 3, 0), 300), '2026-11-22');
    const r = summarizeUsage([
      { at: Date.UTC(2026, 10, 22, 21, 59), model: 'a', charged: 1 },
      { at: Date.UTC(2026, 10, 22, 22, 0), model: 'a', charged: 2 },
    ], plus2);
    assert.deepEqual(r.rows.map((x) => [x.day, x.credits]), [['2026-11-23', 2], ['2026-11-22', 1]]);
  });

  it('sums 1,000 replies over several models and days; rows add up to the total', () => {
    const models = ['alpha', 'beta', 'gamma'];
    const recs: UsageRecord[] = [];
    let expected = 0;
    const start = Date.UTC(2026, 9, 1);
    for (let i = 0; i < 1000; i++) {
      const charged = [0.1, 0.25, 3][i % 3];
      expected += charged;
      recs.push({ at: start + i * 3_600_000, model: models[i % 3], charged });
    }
    const r = summarizeUsage(recs, utc);
    assert.equal(r.replies, 1000);
    assert.equal(r.total, Math.round(expected * 100) / 100);
    const rowSum = r.rows.reduce((s, x) => s + x.credits, 0);
    assert.ok(Math.abs(rowSum - r.total) < 0.005);
    // 1000 hours = 41 days and 16 hours: 42 days, three models each
    assert.equal(new Set(r.rows.map((x) => x.day)).size, 42);
    assert.equal(r.rows[0].day, '2026-11-11');
    assert.deepEqual(r.rows.filter((x) => x.day === '2026-10-01').map((x) => [x.model, x.replies, x.credits]), [['alpha', 8, 0.8], ['beta', 8, 2], ['gamma', 8, 24]]);
  });

  it('counts a reply with no known charge apart, not as zero credits silently', () => {
    const r = summarizeUsage([{ at: 0, model: 'm', charged: 2 }, { at: 1, model: 'm' }], utc);
    assert.deepEqual(r.rows[0], { day: '1970-01-01', model: 'm', replies: 2, credits: 2, unknown: 1, approximate: 0 });
    assert.equal(r.unknown, 1);
    assert.equal(r.total, 2);
  });

  it('counts approximate charges (measured not from the reply alone) and keeps the mark when read back', () => {
    const recs = readUsage([{ at: 0, model: 'm', charged: 5, approximate: true }, { at: 1, model: 'm', charged: 1 }, { at: 2, model: 'm', approximate: true }]);
    assert.deepEqual(recs, [{ at: 0, model: 'm', charged: 5, approximate: true }, { at: 1, model: 'm', charged: 1 }, { at: 2, model: 'm' }]);
    const r = summarizeUsage(recs, utc);
    assert.equal(r.approximate, 1);
    assert.equal(r.rows[0].approximate, 1);
    assert.equal(r.total, 6);
  });

  it('limits to a period [from, to)', () => {
    const recs = [0, 10, 20, 30].map((at) => ({ at, model: 'm', charged: 1 }));
    assert.equal(summarizeUsage(recs, utc, 10, 30).total, 2);
  });

  it('keeps a bounded number of records, dropping the oldest', () => {
    let recs: UsageRecord[] = [];
    for (let i = 0; i < 1200; i++) recs = appendUsage(recs, { at: i, model: 'm', charged: 1 }, 1000);
    assert.equal(recs.length, 1000);
    assert.equal(recs[0].at, 200);
    assert.equal(recs[999].at, 1199);
  });

  it('reads stored records of any shape, keeping the valid ones', () => {
    assert.deepEqual(readUsage({}), []);
    assert.deepEqual(readUsage([null, { at: 'x', model: 'm' }, { at: 5, model: 'm', charged: 'y' }, { at: 6, model: 'n', charged: 1.5 }]), [{ at: 5, model: 'm' }, { at: 6, model: 'n', charged: 1.5 }]);
  });

  it('says where the replies were asked (the chat, @aichat, Edit in the editor), kept with each record and read back', () => {
    const utc = () => 0;
    const recs = readUsage(JSON.parse(JSON.stringify([
      { at: 1, model: 'swift-chat', charged: 1 },
      { at: 2, model: 'swift-chat', charged: 1, surface: 'edit' },
      { at: 3, model: 'deep-think', charged: 5, surface: 'aichat' },
      { at: 4, model: 'deep-think', charged: 5, surface: 'edit' },
      { at: 5, model: 'deep-think', charged: 5, surface: '<script>' },
    ])) as unknown);
    assert.equal(recs[1].surface, 'edit');
    assert.equal(recs[4].surface, undefined, 'a surface that is not a plain name is not kept');
    const r = summarizeUsage(recs, utc);
    assert.deepEqual(r.surfaces, [
      { surface: 'panel', replies: 2, credits: 6 },
      { surface: 'edit', replies: 2, credits: 6 },
      { surface: 'aichat', replies: 1, credits: 5 },
    ].sort((a, b) => b.replies - a.replies || a.surface.localeCompare(b.surface)));
    assert.deepEqual(summarizeUsage([{ at: 1, model: 'swift-chat', charged: 1 }], utc).surfaces, [], 'the chat alone: no breakdown');
  });
});
