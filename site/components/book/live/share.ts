// Share links: the page address carries one live cluster's inputs (commands and faults with their
// simulated times), so a teacher can send a class the exact same cluster state. The scenario and
// seed come from the page itself; the link adds only what the reader did.
import type { LiveInput } from './protocol.ts';

const KEY = 'live';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

/** The page URL with `#live=<id>.<inputs>` (any other fragment is replaced). */
export function shareUrl(href: string, id: string, inputs: readonly LiveInput[]): string {
  const url = new URL(href);
  url.hash = `${KEY}=${id}.${toBase64Url(JSON.stringify(inputs))}`;
  return url.toString();
}

function isInput(value: unknown): value is LiveInput {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v['atMs'] !== 'number' || !Number.isFinite(v['atMs']) || v['atMs'] < 0) return false;
  if (typeof v['command'] === 'string') return true;
  const f = v['fault'] as Record<string, unknown> | undefined;
  if (!f || typeof f !== 'object') return false;
  if (f['kind'] === 'isolate') return Array.isArray(f['targets']) && f['targets'].every((t) => typeof t === 'string');
  return ['stopNode', 'startNode', 'stopComponent', 'startComponent'].includes(String(f['kind'])) && typeof f['target'] === 'string';
}

/** The inputs a share link carries for live cluster `id`, or undefined (a damaged link is ignored, never trusted). */
export function sharedInputs(hash: string, id: string): LiveInput[] | undefined {
  const m = new RegExp(`^#?${KEY}=([\\w-]+)\\.([\\w-]*)$`).exec(hash);
  if (!m || m[1] !== id) return undefined;
  try {
    const parsed: unknown = JSON.parse(fromBase64Url(m[2]!));
    if (!Array.isArray(parsed) || !parsed.every(isInput)) return undefined;
    const times = parsed.map((i) => i.atMs);
    return times.every((t, i) => i === 0 || t >= times[i - 1]!) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A cluster a page address may ask for (the playground's form): bounded so a link cannot ask for a huge one. */
export interface ClusterQuery {
  topology?: 'single-node' | 'ha' | 'managed';
  workers?: number;
  seed?: number;
  etcdMembers?: 1 | 3 | 5;
}

/** Reads ?topology=&workers=&seed=&etcd= (values out of range or unknown are refused with a reason). */
export function clusterFromQuery(search: string): { ok: true; cluster: ClusterQuery } | { ok: false; error: string } {
  const q = new URLSearchParams(search);
  const cluster: ClusterQuery = {};
  const topology = q.get('topology');
  if (topology !== null) {
    if (topology !== 'single-node' && topology !== 'ha' && topology !== 'managed') return { ok: false, error: `topology "${topology}" is not single-node, ha or managed` };
    cluster.topology = topology;
  }
  const int = (name: string, min: number, max: number): number | undefined | string => {
    const v = q.get(name);
    if (v === null) return undefined;
    const n = Number(v);
    return Number.isInteger(n) && n >= min && n <= max ? n : `${name} must be a whole number from ${min} to ${max} (got "${v}")`;
  };
  const workers = int('workers', 0, 20);
  if (typeof workers === 'string') return { ok: false, error: workers };
  if (workers !== undefined) cluster.workers = workers;
  const seed = int('seed', 1, 2 ** 31 - 1);
  if (typeof seed === 'string') return { ok: false, error: seed };
  if (seed !== undefined) cluster.seed = seed;
  const etcd = int('etcd', 1, 5);
  if (typeof etcd === 'string') return { ok: false, error: etcd };
  if (etcd !== undefined) {
    if (etcd !== 1 && etcd !== 3 && etcd !== 5) return { ok: false, error: `etcd must be 1, 3 or 5 (got ${etcd})` };
    cluster.etcdMembers = etcd;
  }
  return { ok: true, cluster };
}
