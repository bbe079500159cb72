// The audit trail: one event per request with every stage of its passage through the pipeline,
// stamped with simulated time, for the request-trace widget.
// Shaped after audit.k8s.io/v1 Event (auditID, verb, user, impersonatedUser, objectRef,
// responseStatus, annotations "authorization.k8s.io/decision" and ".../reason"), with a `stages`
// list added: upstream records only RequestReceived / ResponseComplete, we record each step.
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
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus?: { code: number; message?: string };
  annotations: Record<string, string>;
  requestReceivedMs: number;
  stages: AuditStage[];
}

/** A bounded log: the newest `capacity` events. */
export class AuditLog {
  private readonly events: AuditEvent[] = [];
  private readonly listeners: ((e: AuditEvent) => void)[] = [];

  constructor(private readonly capacity = 1000) {}

  append(e: AuditEvent): void {
    this.events.push(e);
    if (this.events.length > this.capacity) this.events.shift();
    for (const l of this.listeners) l(e);
  }

  /** Events in arrival order (oldest first). */
  list(): readonly AuditEvent[] {
    return this.events;
  }

  subscribe(listener: (e: AuditEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}
