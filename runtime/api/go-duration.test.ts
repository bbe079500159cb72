import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration.ts';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    ['0', 0], ['0s', 0], ['90s', 90_000], ['1m30s', 90_000], ['1.5h', 5_400_000], ['500ms', 500], ['2m', 120_000], ['-1s', -1000], ['1h2m3s', 3_723_000],
  ])('%s -> %i ms', (text, ms) => expect(parseGoDuration(text)).toBe(ms));
  it.each(['', 'abc', '10', '1x', 's', '.s', '1m30'])('%s is refused', (text) => expect(parseGoDuration(text)).toBeUndefined());
});

describe('formatGoDuration (Duration.String)', () => {
  it.each([
    [0, '0s'], [500, '500ms'], [30_000, '30s'], [90_000, '1m30s'], [60_000, '1m0s'], [3_600_000, '1h0m0s'], [1500, '1.5s'], [3_723_000, '1h2m3s'], [1250, '1.25s'],
    [5, '5ms'], [999, '999ms'], [1690, '1.69s'], [90_500, '1m30.5s'], [2.5, '2.5ms'], [0.75, '750µs'], [0.0005, '500ns'], [-1500, '-1.5s'],
  ])('%i ms -> %s', (ms, text) => expect(formatGoDuration(ms)).toBe(text));
});
