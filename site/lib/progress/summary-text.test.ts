import { describe, expect, it } from 'vitest';
import { summaryText } from './summary-text.ts';

describe('summaryText', () => {
  it.each([
    [0, 0, undefined, undefined, 'No progress saved in this browser yet.'],
    [2, 1, 10, 2, '2 of 10 chapters read, 1 of 2 labs passed.'],
    [1, 0, undefined, undefined, '1 chapter read, 0 labs passed.'],
    [3, 1, undefined, undefined, '3 chapters read, 1 lab passed.'],
  ])('%i chapters, %i labs (totals %s/%s)', (chapters, labs, chaptersTotal, labsTotal, text) => {
    expect(summaryText(chapters, labs, chaptersTotal, labsTotal)).toBe(text);
  });
});
