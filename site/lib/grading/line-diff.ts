// A line diff of expected vs actual for the results list: longest common subsequence over lines
// (the values are small serialized objects, so the quadratic table is fine; larger inputs fall
// back to showing both sides whole).
export type DiffLine = { kind: 'same' | 'expected' | 'actual'; text: string };

const MAX_CELLS = 250_000;

export function lineDiff(expected: string, actual: string): DiffLine[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((text) => ({ kind: 'expected' as const, text })), ...b.map((text) => ({ kind: 'actual' as const, text }))];
  }
  // lengths[i][j]: LCS length of a[i..] and b[j..]
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) {
      lines.push({ kind: 'expected', text: a[i]! });
      i += 1;
    } else {
      lines.push({ kind: 'actual', text: b[j]! });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) lines.push({ kind: 'expected', text: a[i]! });
  for (; j < b.length; j += 1) lines.push({ kind: 'actual', text: b[j]! });
  return lines;
}
