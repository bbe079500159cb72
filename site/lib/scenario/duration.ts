// Go-style durations for scenarios ("500ms", "20s", "1m30s", "2h"), as kubectl's flags read them.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration such as "1m30s"; throws with the text when it is not one. */
export function parseDurationMs(text: string): number {
  const trimmed = text.trim();
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(trimmed); m; m = re.exec(trimmed)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (trimmed === '' || matched !== trimmed.length) {
    throw new Error(`invalid duration "${text}": write it as Go does, for example 500ms, 20s or 1m30s`);
  }
  return Math.round(total);
}

/** A duration as a reader reads it: "20s", "1m30s", "500ms". */
export function formatDurationMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${Number.isInteger(s) ? s : s.toFixed(1)}s` : ''}`;
}
