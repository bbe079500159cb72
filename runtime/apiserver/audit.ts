// The audit trail: one event per request with every stage of its passage through the pipeline,
// stamped with simulated time, for the request-trace widget.
// Shaped after audit.k8s.io/v1 Event (auditID, verb, user, impersonatedUser, objectRef,
// responseStatus, annotations "authorization.k8s.io/decision" and ".../reason"), with a `stages`
// list added: upstream records only RequestReceived / ResponseComplete, we record each step.
//
// Every request of every replica is logged, and the log keeps the newest 1,000 per replica, a few
// simulated minutes of traffic: long enough for each entry to outlive two young-generation
// collections and be promoted, then die. So the log keeps each request as one compact record
// (plain fields, the stages packed in one array, the admission plugins' shared verdict lists, the
// strings that can be derived left underived) and builds the AuditEvent only when it is read.
import type { AdmissionStep } from './admission/chain.ts';
import type { UserInfo } from './authn/user.ts';

export type AuditStageName =
  | 'RequestReceived'
  | 'Authentication'
  | 'Impersonation'
  | 'Authorization'
  | 'MutatingAdmission'
  | 'Validation'
  | 'ValidatingAdmission'
  | 'Storage'
  | 'ResponseComplete';

export interface AuditStage {
  stage: AuditStageName;
  atMs: number;
  /** e.g. the plugin name, "allow", the etcd revision. */
  detail: string;
  ok: boolean;
}

export interface AuditEvent {
  auditID: string;
  server: string;
  requestURI: string;
  verb: string;
  user?: UserInfo;
  impersonatedUser?: UserInfo;
  /** The client's User-Agent header ("kubectl/v1.33.0 ...", "kube-scheduler/..."), as audit.k8s.io/v1 records it. */
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus?: { code: number; message?: string };
  annotations: Record<string, string>;
  requestReceivedMs: number;
  stages: AuditStage[];
}

const STAGE_NAMES: readonly AuditStageName[] = [
  'RequestReceived', 'Authentication', 'Impersonation', 'Authorization', 'MutatingAdmission', 'Validation',
  'ValidatingAdmission', 'Storage', 'ResponseComplete',
];
const STAGE_CODES = new Map(STAGE_NAMES.map((name, i) => [name, i]));

// A packed stage is a code, then its time if it differs from the stage before, then its detail.
// code = stage index * 4 + (2 if a time follows) + (1 if ok). An admission run is one entry: a code
// with ADMISSION_RUN set, and the chain's list of steps in place of the detail.
const OK = 1;
const HAS_TIME = 2;
const ADMISSION_RUN = 64;
/** The Authentication stage's detail, built from the method and the user only when read. */
const AUTHENTICATED = null;

/** One request's audit entry, recorded as the request runs; `toEvent` builds the AuditEvent. */
export class AuditRecord {
  user: UserInfo | undefined = undefined;
  impersonatedUser: UserInfo | undefined = undefined;
  /** How the user was authenticated ("x509", "token", ...), for the Authentication stage's detail. */
  authMethod = '';
  userAgent: string | undefined = undefined;
  /** Whether authorization ran, and what it decided. */
  decision: 'allow' | 'forbid' | undefined = undefined;
  reason = '';
  code = 0;
  message: string | undefined = undefined;
  private stages: (number | string | readonly AdmissionStep[] | null)[] = [];
  private lastAtMs: number;

  constructor(
    readonly id: number,
    readonly verb: string,
    readonly requestURI: string,
    readonly requestReceivedMs: number,
    /** objectRef's fields (resource undefined: no objectRef). */
    readonly resource: string | undefined,
    readonly apiGroup: string,
    readonly namespace: string | undefined,
    readonly name: string | undefined,
    readonly subresource: string | undefined,
  ) {
    this.lastAtMs = requestReceivedMs;
    this.stages.push(STAGE_CODES.get('RequestReceived')! * 4 + OK, requestURI);
  }

  stage(stage: AuditStageName, atMs: number, detail: string, ok: boolean): void {
    this.push(STAGE_CODES.get(stage)! * 4, atMs, ok);
    this.stages.push(detail);
  }

  /** A successful authentication: its detail names the method, the user and the groups. */
  authenticated(atMs: number, method: string, user: UserInfo): void {
    this.authMethod = method;
    this.user = user;
    this.push(STAGE_CODES.get('Authentication')! * 4, atMs, true);
    this.stages.push(AUTHENTICATED);
  }

  /** One admission phase's verdicts, one stage per step, all at `atMs` (the list is never changed). */
  admission(phase: 'mutating' | 'validating', atMs: number, steps: readonly AdmissionStep[]): void {
    if (steps.length === 0) return;
    this.push(STAGE_CODES.get(phase === 'mutating' ? 'MutatingAdmission' : 'ValidatingAdmission')! * 4 + ADMISSION_RUN, atMs, true);
    this.stages.push(steps);
  }

  /** Trims the stage list to its length (a growing array keeps spare room) before the log keeps it. */
  compact(): void {
    this.stages = this.stages.slice();
  }

  private push(code: number, atMs: number, ok: boolean): void {
    if (atMs !== this.lastAtMs) {
      this.stages.push(code + HAS_TIME + (ok ? OK : 0), atMs);
      this.lastAtMs = atMs;
    } else {
      this.stages.push(code + (ok ? OK : 0));
    }
  }

  toEvent(server: string): AuditEvent {
    const e: AuditEvent = {
      auditID: `${server}-${this.id}`,
      server,
      requestURI: this.requestURI,
      verb: this.verb,
      annotations: {},
      requestReceivedMs: this.requestReceivedMs,
      stages: this.unpackStages(),
    };
    if (this.resource !== undefined) {
      const ref: NonNullable<AuditEvent['objectRef']> = { resource: this.resource, apiGroup: this.apiGroup };
      if (this.namespace) ref.namespace = this.namespace;
      if (this.name) ref.name = this.name;
      if (this.subresource) ref.subresource = this.subresource;
      e.objectRef = ref;
    }
    if (this.user) e.user = this.user;
    if (this.userAgent !== undefined) e.userAgent = this.userAgent;
    if (this.impersonatedUser) e.impersonatedUser = this.impersonatedUser;
    if (this.decision !== undefined) {
      e.annotations['authorization.k8s.io/decision'] = this.decision;
      e.annotations['authorization.k8s.io/reason'] = this.reason;
    }
    if (this.code !== 0) {
      e.responseStatus = { code: this.code };
      if (this.message) e.responseStatus.message = this.message;
    }
    return e;
  }

  private unpackStages(): AuditStage[] {
    const out: AuditStage[] = [];
    const packed = this.stages;
    let atMs = this.requestReceivedMs;
    for (let i = 0; i < packed.length;) {
      const code = packed[i++] as number;
      if (code & HAS_TIME) atMs = packed[i++] as number;
      const stage = STAGE_NAMES[(code & (ADMISSION_RUN - 1)) >> 2]!;
      const detail = packed[i++]!;
      if (code & ADMISSION_RUN) {
        for (const step of detail as readonly AdmissionStep[]) {
          out.push({ stage, atMs, detail: step.allowed ? step.plugin : `${step.plugin}: ${step.message ?? 'denied'}`, ok: step.allowed });
        }
      } else {
        const text = detail === AUTHENTICATED ? `${this.authMethod}: ${this.user!.name} [${this.user!.groups.join(', ')}]` : detail as string;
        out.push({ stage, atMs, detail: text, ok: (code & OK) !== 0 });
      }
    }
    return out;
  }
}

/** A bounded log: the newest `capacity` events, in a ring. */
export class AuditLog {
  private readonly ring: (AuditRecord | AuditEvent)[] = [];
  /** Where the oldest entry is once the ring is full (and where the next one goes). */
  private oldest = 0;
  private readonly listeners: ((e: AuditEvent) => void)[] = [];

  /** `server` names the replica in the events built from records. */
  constructor(private readonly capacity = 1000, private readonly server = 'kube-apiserver') {}

  append(e: AuditEvent | AuditRecord): void {
    if (e instanceof AuditRecord) e.compact();
    if (this.capacity <= 0) {
      // nothing is kept
    } else if (this.ring.length < this.capacity) {
      this.ring.push(e);
    } else {
      this.ring[this.oldest] = e;
      this.oldest = (this.oldest + 1) % this.capacity;
    }
    if (this.listeners.length === 0) return;
    const event = this.eventOf(e);
    for (const l of this.listeners) l(event);
  }

  /** Events in arrival order (oldest first), built from the records now: a copy, not a view. */
  list(): readonly AuditEvent[] {
    const out: AuditEvent[] = [];
    for (let i = 0; i < this.ring.length; i++) out.push(this.eventOf(this.ring[(this.oldest + i) % this.ring.length]!));
    return out;
  }

  subscribe(listener: (e: AuditEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private eventOf(e: AuditEvent | AuditRecord): AuditEvent {
    return e instanceof AuditRecord ? e.toEvent(this.server) : e;
  }
}
