import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.ts';

const render = (expected: string, actual: string) =>
  lineDiff(expected, actual).map(({ kind, text }) => `${{ same: ' ', expected: '-', actual: '+' }[kind]}${text}`);

describe('lineDiff', () => {
  it.each([
    ['equal values', '3', '3', [' 3']],
    ['scalars', '3', '-1', ['-3', '+-1']],
    ['one changed field', '{\n  "a": 1,\n  "b": 2,\n}', '{\n  "a": 1,\n  "b": 3,\n}', [' {', '   "a": 1,', '-  "b": 2,', '+  "b": 3,', ' }']],
    ['an extra line', 'a\nb', 'a\nx\nb', [' a', '+x', ' b']],
    ['a missing line', 'a\nx\nb', 'a\nb', [' a', '-x', ' b']],
  ])('%s', (_name, expected, actual, lines) => {
    expect(render(expected, actual)).toEqual(lines);
  });
});
