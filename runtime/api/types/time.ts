// Simulated-time timestamps. The runtime never reads a real clock: callers pass the kernel's
// simulated milliseconds and an epoch. Formats mirror metav1.Time (RFC 3339, seconds, "Z") and
// metav1.MicroTime (RFC 3339 with 6 fractional digits), see
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go and micro_time.go.
import type { MicroTime, Time } from './meta.ts';

/** Simulated time 0 maps to this wall-clock instant (ms since the Unix epoch): 2026-01-01T00:00:00Z. */
export const SIMULATION_EPOCH_MS = 1_767_225_600_000;

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 to a proleptic Gregorian civil date (Hinnant's days_from_civil inverse). */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function split(unixMs: number): { date: string; clock: string; msOfSecond: number } {
  const days = Math.floor(unixMs / MS_PER_DAY);
  const msOfDay = unixMs - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const h = Math.floor(msOfDay / 3_600_000);
  const m = Math.floor((msOfDay % 3_600_000) / 60_000);
  const s = Math.floor((msOfDay % 60_000) / 1000);
  return {
    date: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`,
    clock: `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`,
    msOfSecond: msOfDay % 1000,
  };
}

/** Simulated milliseconds to metav1.Time, truncated to the second: "2026-01-01T00:00:05Z". */
export function rfc3339(simMs: number, epochMs: number = SIMULATION_EPOCH_MS): Time {
  const { date, clock } = split(Math.floor(epochMs + simMs));
  return `${date}T${clock}Z`;
}

/** Simulated milliseconds to metav1.MicroTime: "2026-01-01T00:00:05.250000Z". */
export function rfc3339Micro(simMs: number, epochMs: number = SIMULATION_EPOCH_MS): MicroTime {
  const { date, clock, msOfSecond } = split(Math.floor(epochMs + simMs));
  return `${date}T${clock}.${pad(msOfSecond, 3)}000Z`;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 timestamp back to simulated milliseconds (inverse of rfc3339 / rfc3339Micro).
 * Returns undefined for text that is not RFC 3339 (callers turn that into a validation error).
 */
export function parseRFC3339(
  text: string,
  epochMs: number = SIMULATION_EPOCH_MS,
): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, h, min, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || h! > 23 || min! > 59 || s! > 60)
    return undefined;
  const fractionMs = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  const offsetMin = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  const unixMs =
    daysFromCivil(year!, month!, day!) * MS_PER_DAY +
    h! * 3_600_000 +
    min! * 60_000 +
    s! * 1000 +
    fractionMs -
    offsetMin * 60_000;
  return unixMs - epochMs;
}

/** Simulated milliseconds in Go's time.RFC3339Nano: trailing zeros of the fraction dropped ("2026-01-01T00:00:05.25Z"). */
export function rfc3339Nano(simMs: number, epochMs: number = SIMULATION_EPOCH_MS): string {
  const { date, clock, msOfSecond } = split(Math.floor(epochMs + simMs));
  const fraction = msOfSecond === 0 ? '' : `.${pad(msOfSecond, 3).replace(/0+$/, '')}`;
  return `${date}T${clock}${fraction}Z`;
}
