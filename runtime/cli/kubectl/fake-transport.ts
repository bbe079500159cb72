// An in-memory API server for kubectl's tests (and for a terminal before the real API server is
// wired): objects keyed by resource, namespace and name, resourceVersions from one counter,
// label and field selectors, and real Status errors (NotFound, AlreadyExists, Conflict, Forbidden).
// It answers synchronously; kubectl never depends on that.
import type { KubeObject, Status, StatusReason } from '../../api/index.ts';
import {
  applyJsonPatch,
  parseFieldSelector,
  parseSelector,
  patchStructForKind,
  rfc3339,
  strategicMergePatch,
} from '../../api/index.ts';
import type {
  KubeRequest,
  KubeResponse,
  KubeTransport,
  RawRequest,
  WatchEvent,
} from './transport.ts';

export function statusError(
  reason: StatusReason,
  code: number,
  message: string,
  details?: Status['details'],
): Status {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details,
    code,
  };
}

const qualified = (req: KubeRequest): string =>
  req.resource.group ? `${req.resource.resource}.${req.resource.group}` : req.resource.resource;

/** Field values a field selector may test (metadata.name/namespace, spec.nodeName, status.phase, involvedObject.*). */
function fieldsOf(obj: KubeObject): Record<string, string> {
  const o = obj as unknown as {
    spec?: { nodeName?: string };
    status?: { phase?: string };
    involvedObject?: { name?: string; namespace?: string; uid?: string; kind?: string; apiVersion?: string };
  };
  return {
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
    'spec.nodeName': o.spec?.nodeName ?? '',
    'status.phase': o.status?.phase ?? '',
    'involvedObject.name': o.involvedObject?.name ?? '',
    'involvedObject.namespace': o.involvedObject?.namespace ?? '',
    'involvedObject.uid': o.involvedObject?.uid ?? '',
    'involvedObject.kind': o.involvedObject?.kind ?? '',
    'involvedObject.apiVersion': o.involvedObject?.apiVersion ?? '',
  };
}

export class FakeTransport implements KubeTransport {
  readonly objects = new Map<string, KubeObject>();
  readonly requests: KubeRequest[] = [];
  /** Pod logs by "namespace/name/container". */
  readonly logs = new Map<string, string>();
  /** Users allowed nothing (auth can-i and every request answer Forbidden for them). */
  readonly deniedUsers = new Set<string>();
  private revision = 1;
  private readonly watchers = new Set<{ prefix: string; onEvent: (e: WatchEvent) => void }>();
  private uidCounter = 0;

  constructor(private readonly nowMs: () => number = () => 0) {}

  private key(
    group: string,
    resource: string,
    namespace: string | undefined,
    name: string,
  ): string {
    return `${group}/${resource}/${namespace ?? ''}/${name}`;
  }

  /** Seeds an object as if it had been created at simulated time createdMs. */
  seed(group: string, resource: string, obj: KubeObject, createdMs = 0): KubeObject {
    const stored = this.stamp(obj, createdMs);
    this.objects.set(
      this.key(group, resource, obj.metadata.namespace, obj.metadata.name ?? ''),
      stored,
    );
    return stored;
  }

  private stamp(obj: KubeObject, createdMs: number): KubeObject {
    const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
    copy.metadata.uid ??= `uid-${++this.uidCounter}`;
    copy.metadata.resourceVersion = String(++this.revision);
    copy.metadata.creationTimestamp ??= rfc3339(createdMs);
    if ((copy as { spec?: unknown }).spec !== undefined) copy.metadata.generation ??= 1;
    return copy;
  }

  request(req: KubeRequest, done: (res: KubeResponse) => void): void {
    this.requests.push(req);
    const before =
      req.verb === 'delete' || req.subresource === 'eviction'
        ? this.objects.get(
            this.key(req.resource.group, req.resource.resource, req.namespace, req.name ?? ''),
          )
        : undefined;
    const res = this.answer(req);
    if (
      res.ok &&
      (req.verb === 'create' || req.verb === 'update' || req.verb === 'patch') &&
      !req.subresource &&
      (res.body as KubeObject).metadata
    )
      this.emit(req, req.verb === 'create' ? 'ADDED' : 'MODIFIED', res.body as KubeObject);
    if (res.ok && before) this.emit(req, 'DELETED', before);
    done(res);
  }

  /**
   * Streams ADDED/MODIFIED/DELETED for the resource (and namespace) until stop(). Without a
   * resourceVersion, or from "0", the stream starts with a synthetic ADDED for each object that
   * exists (and matches the selectors), as the API server's watch does; from a list's
   * resourceVersion it sends only later changes.
   */
  watch(req: KubeRequest, onEvent: (event: WatchEvent) => void): { stop(): void } {
    const watcher = {
      prefix: `${req.resource.group}/${req.resource.resource}/${req.namespace === undefined ? '' : `${req.namespace}/`}`,
      onEvent,
    };
    const rv = req.query?.resourceVersion;
    if (rv === undefined || rv === '' || rv === '0') {
      const current = this.list({ ...req, verb: 'list' });
      if (current.ok) for (const object of (current.body as { items: KubeObject[] }).items) onEvent({ type: 'ADDED', object });
    }
    this.watchers.add(watcher);
    return { stop: () => this.watchers.delete(watcher) };
  }

  /** Updates an object as a controller would (status changes), notifying watchers. */
  modify(group: string, resource: string, obj: KubeObject): void {
    const stored = {
      ...obj,
      metadata: { ...obj.metadata, resourceVersion: String(++this.revision) },
    };
    this.objects.set(
      this.key(group, resource, obj.metadata.namespace, obj.metadata.name ?? ''),
      stored,
    );
    this.emit(
      {
        verb: 'update',
        resource: { group, version: 'v1', resource },
        namespace: obj.metadata.namespace,
      },
      'MODIFIED',
      stored,
    );
  }

  private emit(req: KubeRequest, type: WatchEvent['type'], object: KubeObject): void {
    const key = this.key(
      req.resource.group,
      req.resource.resource,
      object.metadata.namespace,
      object.metadata.name ?? '',
    );
    for (const w of [...this.watchers]) if (key.startsWith(w.prefix)) w.onEvent({ type, object });
  }

  raw(
    req: RawRequest,
    done: (res: { ok: true; body: string } | { ok: false; status: Status }) => void,
  ): void {
    if (req.path === '/metrics')
      done({ ok: true, body: '# HELP apiserver_request_total Counter of apiserver requests.\n' });
    else
      done({
        ok: false,
        status: statusError('NotFound', 404, 'the server could not find the requested resource'),
      });
  }

  private answer(req: KubeRequest): KubeResponse {
    const user = req.impersonate?.user;
    if (req.resource.resource === 'selfsubjectaccessreviews') {
      const allowed = user === undefined || !this.deniedUsers.has(user);
      return { ok: true, body: { ...(req.body as object), status: { allowed } } };
    }
    if (user !== undefined && this.deniedUsers.has(user)) {
      const where = req.namespace
        ? ` in the namespace "${req.namespace}"`
        : ' at the cluster scope';
      return {
        ok: false,
        status: statusError(
          'Forbidden',
          403,
          `${qualified(req)} is forbidden: User "${user}" cannot ${req.verb} resource "${req.resource.resource}" in API group "${req.resource.group}"${where}`,
        ),
      };
    }
    const { group, resource } = req.resource;
    const key = this.key(group, resource, req.namespace, req.name ?? '');
    const existing = this.objects.get(key);
    const notFound = (): KubeResponse => ({
      ok: false,
      status: statusError('NotFound', 404, `${qualified(req)} "${req.name ?? ''}" not found`, {
        name: req.name,
        group,
        kind: resource,
      }),
    });
    switch (req.verb) {
      case 'get':
        if (!existing) return notFound();
        if (req.subresource === 'log')
          return {
            ok: true,
            body: this.logs.get(`${req.namespace}/${req.name}/${req.query?.container ?? ''}`) ?? '',
          };
        return { ok: true, body: existing };
      case 'list':
        return this.list(req);
      case 'create': {
        if (req.subresource === 'eviction') {
          if (!existing) return notFound();
          this.objects.delete(key);
          return { ok: true, body: { kind: 'Status', status: 'Success' } };
        }
        const body = req.body as KubeObject;
        const createKey = this.key(group, resource, req.namespace, body.metadata.name ?? '');
        if (this.objects.has(createKey)) {
          return {
            ok: false,
            status: statusError(
              'AlreadyExists',
              409,
              `${qualified(req)} "${body.metadata.name ?? ''}" already exists`,
              { name: body.metadata.name, group, kind: resource },
            ),
          };
        }
        const stored = this.stamp(
          { ...body, metadata: { ...body.metadata, namespace: req.namespace } },
          this.nowMs(),
        );
        if (req.namespace === undefined) delete stored.metadata.namespace;
        this.objects.set(createKey, stored);
        return { ok: true, body: stored };
      }
      case 'update': {
        if (!existing) return notFound();
        return this.replace(req, key, existing, req.body as KubeObject);
      }
      case 'patch': {
        if (!existing) return notFound();
        const patched = applyPatchBody(req.query?.patchType ?? 'strategic', existing, req.body);
        if (!patched.ok) return { ok: false, status: patched.status };
        return this.replace(req, key, existing, patched.object);
      }
      case 'delete':
        if (!existing) return notFound();
        this.objects.delete(key);
        return { ok: true, body: existing };
      default:
        return {
          ok: false,
          status: statusError(
            'MethodNotAllowed',
            405,
            `the server does not allow this method on the requested resource`,
          ),
        };
    }
  }

  /** Stores body in place of existing: a stale resourceVersion is a Conflict, a spec change bumps generation. */
  private replace(req: KubeRequest, key: string, existing: KubeObject, body: KubeObject): KubeResponse {
    if (
      body.metadata.resourceVersion &&
      body.metadata.resourceVersion !== existing.metadata.resourceVersion
    ) {
      return {
        ok: false,
        status: statusError(
          'Conflict',
          409,
          `Operation cannot be fulfilled on ${qualified(req)} "${req.name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`,
        ),
      };
    }
    // like the API server, a write that changes nothing is not stored again (same resourceVersion)
    const withoutRv = (o: KubeObject): string =>
      JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
    if (withoutRv(body) === withoutRv(existing)) return { ok: true, body: existing };
    const stored = JSON.parse(JSON.stringify(body)) as KubeObject;
    stored.metadata.resourceVersion = String(++this.revision);
    const specChanged =
      JSON.stringify((body as { spec?: unknown }).spec) !==
      JSON.stringify((existing as { spec?: unknown }).spec);
    if (specChanged && existing.metadata.generation !== undefined)
      stored.metadata.generation = existing.metadata.generation + 1;
    this.objects.set(key, stored);
    return { ok: true, body: stored };
  }

  private list(req: KubeRequest): KubeResponse {
    const prefix = `${req.resource.group}/${req.resource.resource}/`;
    const labels = parseSelector(req.query?.labelSelector ?? '');
    if (!labels.ok) return { ok: false, status: statusError('BadRequest', 400, labels.error) };
    const fields = parseFieldSelector(req.query?.fieldSelector ?? '');
    if (!fields.ok) return { ok: false, status: statusError('BadRequest', 400, fields.error) };
    const items = [...this.objects.entries()]
      .filter(
        ([k]) =>
          k.startsWith(prefix) &&
          (req.namespace === undefined || k.startsWith(`${prefix}${req.namespace}/`)),
      )
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => o)
      .filter(
        (o) => labels.selector.matches(o.metadata.labels) && fields.selector.matches(fieldsOf(o)),
      )
      .map((o) => {
        const { apiVersion: _a, kind: _k, ...rest } = o;
        return rest as KubeObject;
      });
    return { ok: true, body: { metadata: { resourceVersion: String(this.revision) }, items } };
  }
}

type Json = Record<string, unknown>;

/** RFC 7386 JSON merge patch. */
function jsonMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Json =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = jsonMergePatch(out[k], v);
  }
  return out;
}

/** The three patch types, as the API server applies them (400 for a malformed patch). */
function applyPatchBody(
  type: 'merge' | 'strategic' | 'json',
  existing: KubeObject,
  body: unknown,
): { ok: true; object: KubeObject } | { ok: false; status: Status } {
  const current = existing as unknown as Json;
  const bad = (message: string): { ok: false; status: Status } => ({
    ok: false,
    status: statusError('BadRequest', 400, message),
  });
  if (type === 'json') {
    const r = applyJsonPatch(current, body);
    return r.ok ? { ok: true, object: r.value as unknown as KubeObject } : bad(r.error);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return bad('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
  if (type === 'merge') return { ok: true, object: jsonMergePatch(current, body) as KubeObject };
  const r = strategicMergePatch(current, body as Json, patchStructForKind(existing.kind ?? ''));
  return r.ok ? { ok: true, object: r.value as unknown as KubeObject } : bad(r.error);
}
