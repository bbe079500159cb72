// The simulated image registry: a handful of real images (with their real compressed sizes, roughly)
// and images with scripted behaviour for teaching. Every image resolves to a behaviour the
// container runtime plays out on the simulated clock.
//
// Scripted images (all under ghcr.io/inside-cp/, tags carry the parameter):
//   crash-after:<N>s     runs N seconds, then exits with code 1 (reason Error): CrashLoopBackOff
//   exit-1               exits with code 1 half a second after it starts
//   complete:<N>s        runs N seconds, then exits 0 (reason Completed): a Job-like workload
//   never-ready          runs forever; every readiness probe fails (HTTP 503)
//   unhealthy-after:<N>s runs forever; liveness and readiness probes fail after N seconds (HTTP 500)
//   oom                  allocates past its memory limit after 2 s: OOMKilled, exit code 137
//   ignore-sigterm       runs forever and ignores SIGTERM: a deletion waits the whole grace period
// busybox runs its command: `sleep N` runs N seconds (and, as PID 1, ignores SIGTERM, as the real
// one does); `sh -c "while true; do ...; done"` runs its body until it is killed; any other command
// runs in busybox's userland (userland.ts: echo, wget, nslookup, scripts...) and its output is the
// container's log; with no command it runs `sh`, which exits 0 at once.

/** What a container of this image does once started. */
export type ImageBehaviour =
  | { kind: 'serve'; ignoresSigterm?: boolean }
  | { kind: 'exit'; afterMs: number; exitCode: number; ignoresSigterm?: boolean }
  | { kind: 'never-ready' }
  | { kind: 'unhealthy-after'; afterMs: number }
  | { kind: 'oom'; afterMs: number }
  /** Runs its command in the image's userland (userland.ts), writes what it prints, exits with its code. */
  | { kind: 'program'; argv: readonly string[]; ignoresSigterm: true }
  /** `sh -c "while true; do BODY; done"`: runs BODY again and again until it is killed. */
  | { kind: 'loop'; body: string; ignoresSigterm: true };

export interface ImageSpec {
  /** Fully qualified reference: docker.io/library/nginx:1.27. */
  ref: string;
  /** Repository digest, sha256:<64 hex>. */
  digest: string;
  sizeBytes: number;
  behaviour: ImageBehaviour;
  /** Lines the container prints when it starts. */
  logs: string[];
}

export const SCRIPTED_REGISTRY = 'ghcr.io/inside-cp';

interface KnownImage {
  repo: string;
  sizeBytes: number;
  logs: string[];
  /** The tags the registry has; without it, any tag resolves (infrastructure images). */
  tagExists?: (tag: string) => boolean;
  ignoresSigterm?: boolean;
}

/**
 * Tags of a Docker Hub official image: its named tags, and versions "M", "M.m" and "M.m.p" with
 * the major, minor and patch in the ranges the repository publishes, each optionally with a variant
 * suffix ("1.27-alpine"). A tag outside them (a typo like the Deployment docs' "nginx:1.161") is not
 * found, so the pull fails with ErrImagePull as on a real cluster.
 */
function officialTags(o: { named: string[]; variants: string[]; major: [number, number]; minor: [number, number]; patchMax: number }): (tag: string) => boolean {
  return (tag) => {
    if (o.named.includes(tag)) return true;
    const dash = tag.indexOf('-');
    const version = dash < 0 ? tag : tag.slice(0, dash);
    if (dash >= 0 && !o.variants.includes(tag.slice(dash + 1))) return false;
    const m = /^(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(version);
    if (!m) return false;
    const [major, minor, patch] = [Number(m[1]), m[2] === undefined ? undefined : Number(m[2]), m[3] === undefined ? undefined : Number(m[3])];
    if (major < o.major[0] || major > o.major[1]) return false;
    if (minor !== undefined && (minor < o.minor[0] || minor > o.minor[1])) return false;
    return patch === undefined || patch <= o.patchMax;
  };
}

const NGINX_TAGS = officialTags({
  named: ['latest', 'stable', 'mainline', 'alpine', 'alpine-slim', 'alpine-perl', 'perl', 'bookworm', 'bookworm-perl', 'otel', 'alpine-otel', 'stable-alpine', 'mainline-alpine'],
  variants: ['alpine', 'alpine-slim', 'alpine-perl', 'perl', 'bookworm', 'bookworm-perl', 'otel', 'alpine-otel'],
  major: [1, 1], minor: [9, 29], patchMax: 12,
});
const BUSYBOX_TAGS = officialTags({ named: ['latest', 'stable', 'unstable', 'musl', 'glibc', 'uclibc'], variants: ['musl', 'glibc', 'uclibc'], major: [1, 1], minor: [20, 37], patchMax: 5 });
const REDIS_TAGS = officialTags({ named: ['latest', 'alpine', 'bookworm'], variants: ['alpine', 'bookworm'], major: [2, 8], minor: [0, 4], patchMax: 20 });
const HTTPD_TAGS = officialTags({ named: ['latest', 'alpine', 'bookworm'], variants: ['alpine', 'bookworm'], major: [2, 2], minor: [2, 4], patchMax: 65 });
const POSTGRES_TAGS = officialTags({ named: ['latest', 'alpine', 'bookworm'], variants: ['alpine', 'bookworm'], major: [9, 18], minor: [0, 24], patchMax: 0 });

/**
 * What the official nginx image prints as it starts (docker-entrypoint.sh, then nginx's error log
 * on stderr): `{time}` is nginx's local time ("2026/01/01 00:00:06"), filled in as the line is
 * written. The version, compiler and kernel lines nginx also prints are left out (they depend on
 * the exact build), and one worker starts per CPU of the simulated nodes (4).
 */
const NGINX_LOGS = [
  '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
  '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
  '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
  '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
  '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
  '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
  '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
  '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
  '/docker-entrypoint.sh: Configuration complete; ready for start up',
  '{time} [notice] 1#1: using the "epoll" event method',
  '{time} [notice] 1#1: start worker processes',
  '{time} [notice] 1#1: start worker process 29',
  '{time} [notice] 1#1: start worker process 30',
  '{time} [notice] 1#1: start worker process 31',
  '{time} [notice] 1#1: start worker process 32',
];

const KNOWN: KnownImage[] = [
  { repo: 'docker.io/library/nginx', sizeBytes: 72_000_000, logs: NGINX_LOGS, tagExists: NGINX_TAGS },
  { repo: 'docker.io/library/busybox', sizeBytes: 2_160_000, logs: [], tagExists: BUSYBOX_TAGS },
  { repo: 'docker.io/library/redis', sizeBytes: 45_300_000, logs: ['* Ready to accept connections tcp'], tagExists: REDIS_TAGS },
  { repo: 'docker.io/library/httpd', sizeBytes: 58_600_000, logs: ['AH00094: Command line: \'httpd -D FOREGROUND\''], tagExists: HTTPD_TAGS },
  { repo: 'docker.io/library/postgres', sizeBytes: 158_000_000, logs: ['database system is ready to accept connections'], tagExists: POSTGRES_TAGS },
  { repo: 'registry.k8s.io/pause', sizeBytes: 320_000, logs: [] },
  { repo: 'registry.k8s.io/etcd', sizeBytes: 57_700_000, logs: ['"msg":"serving client traffic securely"'] },
  { repo: 'registry.k8s.io/kube-apiserver', sizeBytes: 28_500_000, logs: ['"Serving securely on [::]:6443"'] },
  { repo: 'registry.k8s.io/kube-controller-manager', sizeBytes: 26_400_000, logs: ['"Started kube-controller-manager"'] },
  { repo: 'registry.k8s.io/kube-scheduler', sizeBytes: 20_700_000, logs: ['"Serving securely on 127.0.0.1:10259"'] },
  { repo: 'registry.k8s.io/kube-proxy', sizeBytes: 30_900_000, logs: ['"Using iptables Proxier"'] },
  { repo: 'registry.k8s.io/coredns/coredns', sizeBytes: 18_600_000, logs: ['CoreDNS-1.12.0'] },
  // the Kubernetes e2e tests' Swiss-army image (serve-hostname answers with the pod's name)
  { repo: 'registry.k8s.io/e2e-test-images/agnhost', sizeBytes: 51_400_000, logs: [] },
  { repo: 'docker.io/kindest/kindnetd', sizeBytes: 35_700_000, logs: ['"setting mtu 1500 for CNI"', '"Handling node with IPs"', '"handling current node"'] },
];

/** docker.io/library/nginx:latest from "nginx"; tags default to latest, digests are kept. */
export function normalizeImageRef(image: string): string {
  let ref = image.trim();
  const firstSlash = ref.indexOf('/');
  const first = firstSlash < 0 ? '' : ref.slice(0, firstSlash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  if (!hasRegistry) ref = firstSlash < 0 ? `docker.io/library/${ref}` : `docker.io/${ref}`;
  const lastSlash = ref.lastIndexOf('/');
  if (!ref.includes('@') && !ref.slice(lastSlash).includes(':')) ref += ':latest';
  return ref;
}

function splitRef(ref: string): { repo: string; tag: string } {
  const at = ref.indexOf('@');
  if (at >= 0) return { repo: ref.slice(0, at), tag: ref.slice(at + 1) };
  const colon = ref.lastIndexOf(':');
  return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
}

/** "10s" -> 10000 ms; undefined for anything else. */
function parseSecondsTag(tag: string): number | undefined {
  const m = /^(\d{1,5})s$/.exec(tag);
  return m ? Number(m[1]) * 1000 : undefined;
}

function scripted(name: string, tag: string): { behaviour: ImageBehaviour; logs: string[] } | undefined {
  const seconds = parseSecondsTag(tag);
  switch (name) {
    case 'crash-after':
      return seconds === undefined ? undefined : { behaviour: { kind: 'exit', afterMs: seconds, exitCode: 1 }, logs: ['starting', `crashing after ${tag} on purpose`] };
    case 'complete':
      return seconds === undefined ? undefined : { behaviour: { kind: 'exit', afterMs: seconds, exitCode: 0 }, logs: ['working', 'done'] };
    case 'exit-1':
      return { behaviour: { kind: 'exit', afterMs: 500, exitCode: 1 }, logs: ['error: missing configuration, exiting with code 1'] };
    case 'never-ready':
      return { behaviour: { kind: 'never-ready' }, logs: ['waiting for a dependency that never comes'] };
    case 'unhealthy-after':
      return seconds === undefined ? undefined : { behaviour: { kind: 'unhealthy-after', afterMs: seconds }, logs: ['serving', `will deadlock after ${tag}`] };
    case 'oom':
      return { behaviour: { kind: 'oom', afterMs: 2000 }, logs: ['allocating memory without bound'] };
    case 'ignore-sigterm':
      return { behaviour: { kind: 'serve', ignoresSigterm: true }, logs: ['trapping SIGTERM and ignoring it'] };
    default:
      return undefined;
  }
}

/** A deterministic fake digest derived from the reference (no crypto needed for a simulation). */
export function fakeDigest(text: string): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < 64; round++) {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ round, 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return `sha256:${out.slice(0, 64)}`;
}

/** Looks an image up in the simulated registry; undefined when the registry does not have it. */
export function resolveImage(image: string): ImageSpec | undefined {
  const ref = normalizeImageRef(image);
  const { repo, tag } = splitRef(ref);
  if (repo.startsWith(`${SCRIPTED_REGISTRY}/`)) {
    const s = scripted(repo.slice(SCRIPTED_REGISTRY.length + 1), tag);
    return s && { ref, digest: fakeDigest(ref), sizeBytes: 4_200_000, behaviour: s.behaviour, logs: s.logs };
  }
  const known = KNOWN.find((k) => k.repo === repo);
  if (!known) return undefined;
  // a digest (repo@sha256:...) names content, not a tag: it resolves
  if (!ref.includes('@') && known.tagExists && !known.tagExists(tag)) return undefined;
  return { ref, digest: fakeDigest(ref), sizeBytes: known.sizeBytes, behaviour: { kind: 'serve' }, logs: known.logs };
}

/**
 * busybox runs its command: `sleep N` runs N s and ignores SIGTERM (as PID 1 does); a shell loop
 * that never ends (`while true; do ...; done`) runs its body until it is killed; any other command runs in the busybox
 * userland (echo, wget, nslookup, `sh -c` scripts...) and exits with its code; `sh` exits 0.
 */
export function behaviourFor(spec: ImageSpec, command: readonly string[]): ImageBehaviour {
  if (!spec.ref.startsWith('docker.io/library/busybox')) return spec.behaviour;
  const shellScript = (command[0] === 'sh' || command[0] === '/bin/sh') && command[1] === '-c' ? command[2] ?? '' : undefined;
  if (shellScript !== undefined && /\bwhile\s+(true|:)\s*;/.test(shellScript)) {
    const loop = /^\s*while\s+(?:true|:)\s*;\s*do\s+(.*?)\s*;?\s*done\s*;?\s*$/s.exec(shellScript);
    return loop ? { kind: 'loop', body: loop[1]!, ignoresSigterm: true } : { kind: 'serve', ignoresSigterm: true };
  }
  const sleep = command.findIndex((word) => word === 'sleep');
  if (sleep >= 0) {
    const arg = command[sleep + 1] ?? '';
    if (arg === 'infinity') return { kind: 'serve', ignoresSigterm: true };
    const seconds = Number(arg.replace(/s$/, ''));
    if (Number.isFinite(seconds) && seconds > 0) return { kind: 'exit', afterMs: seconds * 1000, exitCode: 0, ignoresSigterm: true };
  }
  if (command.length > 0) return { kind: 'program', argv: command, ignoresSigterm: true };
  return { kind: 'exit', afterMs: 100, exitCode: 0 };
}
