import { describe, expect, it } from 'vitest';
import { parseRFC3339, rfc3339, rfc3339Micro, SIMULATION_EPOCH_MS } from './time.ts';

describe('simulated timestamps', () => {
  const cases: [string, number, string, string][] = [
    ['boot', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000000Z'],
    ['sub-second truncates', 999, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.999000Z'],
    ['one day later', 86_400_000 + 5_250, '2026-01-02T00:00:05Z', '2026-01-02T00:00:05.250000Z'],
    [
      'leap day 2028',
      (365 + 365 + 31 + 28) * 86_400_000 + 3_723_000,
      '2028-02-29T01:02:03Z',
      '2028-02-29T01:02:03.000000Z',
    ],
    [
      'year end',
      364 * 86_400_000 + 86_399_000,
      '2026-12-31T23:59:59Z',
      '2026-12-31T23:59:59.000000Z',
    ],
  ];
  it.each(cases)('%s', (_name, ms, time, micro) => {
    expect(rfc3339(ms)).toBe(time);
    expect(rfc3339Micro(ms)).toBe(micro);
    expect(parseRFC3339(micro)).toBe(ms);
    expect(parseRFC3339(time)).toBe(ms - (ms % 1000));
  });
  it('uses the Unix epoch when asked', () => {
    expect(rfc3339(0, 0)).toBe('1970-01-01T00:00:00Z');
    expect(rfc3339(SIMULATION_EPOCH_MS, 0)).toBe('2026-01-01T00:00:00Z');
    expect(rfc3339(951_782_400_000, 0)).toBe('2000-02-29T00:00:00Z');
  });
  it('honours offsets and rejects non-RFC 3339 text', () => {
    expect(parseRFC3339('2026-01-01T01:00:00+01:00')).toBe(0);
    expect(parseRFC3339('2026-01-01 00:00:00')).toBeUndefined();
    expect(parseRFC3339('2026-13-01T00:00:00Z')).toBeUndefined();
  });
});
