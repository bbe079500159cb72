import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi.ts';

describe('stripAnsi', () => {
  it.each([
    ['colour codes', '\u001b[32m- Expected\u001b[39m', '- Expected'],
    ['bold and dim', '\u001b[1m\u001b[2mx\u001b[22m', 'x'],
    ['cursor moves', 'a\u001b[2Kb', 'ab'],
    ['plain text untouched', 'expected 1 to be 2', 'expected 1 to be 2'],
  ])('%s', (_name, input, output) => {
    expect(stripAnsi(input)).toBe(output);
  });
});
