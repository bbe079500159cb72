// One API server replica: the request pipeline from credentials to etcd and back.
// mirrors the filter chain of staging/src/k8s.io/apiserver/pkg/server/config.go
// (DefaultBuildHandlerChain: authentication -> impersonation -> authorization) and the REST
// handlers behind it (admission, validation, storage). The replica keeps no state of its own
// that matters: everything is in etcd, the caches are rebuilt from it on start, so losing a
// replica loses nothing.
import {
  SIMULATION_EPOCH_MS, apiVersionOf, escapeComponent, forbiddenMessage, newBadRequest, newForbidden, newInternalError, newNotFound,
  newUnauthorized, rfc3339, type ClusterRole, type ClusterRoleBinding, type KubeObject, type Pod, type ResourceInfo, type Role,
  type RoleBinding, type Status,
} from '../api/index.ts';
import type { EtcdClient } from '../etcd/index.ts';
import { AdmissionChain } from './admission/chain.ts';
import { DEFAULT_ADMISSION_PLUGINS } from './admission/plugins/index.ts';
import type { AdmissionContext, AdmissionPlugin } from './admission/types.ts';
import { AuditLog, AuditRecord, type AuditStageName } from './audit.ts';
import { Authenticator, type AuthenticatorOptions } from './authn/authenticator.ts';
import { impersonate } from './authn/impersonation.ts';
import type { UserInfo } from './authn/user.ts';
import type { Attributes, Authorizer } from './authz/attributes.ts';
import { NodeAuthorizer } from './authz/node/node-authorizer.ts';
import { RbacAuthorizer, type RbacLister } from './authz/rbac/authorizer.ts';
import { buildPredicate } from './watch-cache/filter.ts';
import { PrivilegedGroupsAuthorizer, UnionAuthorizer } from './authz/union.ts';
import { parseQuery, runHealthChecks, runOneHealthCheck, type HealthCheck, type HealthQuery } from './health.ts';
import { bootstrapObjects } from './bootstrap.ts';
import { ACCESS_REVIEW_RESOURCE, RULES_REVIEW_RESOURCE, selfSubjectAccessReview, selfSubjectRulesReview } from './handlers/access-review.ts';
import { SELF_SUBJECT_REVIEW_RESOURCE, selfSubjectReview } from './handlers/self-subject-review.ts';
import { serveComponentStatuses, type ComponentCheck } from './handlers/component-status.ts';
import { handleDelete, handleDeleteCollection } from './handlers/delete.ts';
import { handleExec } from './handlers/exec.ts';
import { handleTokenRequest } from './handlers/token-request.ts';
import { followLog, handleLog, type KubeletClient } from './handlers/log.ts';
import { handleGet, handleList, startWatch } from './handlers/read.ts';
import type { Scope } from './handlers/scope.ts';
import { handleCreate, handlePatch, handleUpdate } from './handlers/write.ts';
import { discoveryDocument } from './discovery.ts';
import { ApiMetrics } from './metrics.ts';
import { resourceRequestOfPath } from './request-info.ts';
import { inGoFieldOrder } from './wire-order.ts';
import type { StrategyContext } from './registry/strategy.ts';
import type { ApiEndpoint, ApiRequest, ApiResponse, ApiWatchHandle, ApiWatchHandlers, ResponseBody, ResponseCallback, Verb } from './request.ts';
import { SERVED_RESOURCES, servedResource, storagePrefix } from './resources.ts';
import { EtcdStore } from './storage/etcd-store.ts';
import { COMPACTION_INTERVAL_MS, startCompactor } from './storage/compactor.ts';
import { objectKey } from './storage/keys.ts';
import { WatchCache, type CacheClock } from './watch-cache/watch-cache.ts';

export interface ApiServerOptions {
  /** The replica's name (its network endpoint), e.g. "kube-apiserver-1". */
  name?: string;
  etcd: EtcdClient;
  /** Simulated time; defaults to the etcd client's clock. */
  clock?: CacheClock;
  /** --etcd-compaction-interval: compact etcd's history this often (default 5 min; 0 disables). */
  compactionIntervalMs?: number;
  /** Seeded randomness for uids and generated names (the kernel's rng or a fork of it). */
  rng: { nextInt(n: number): number };
  authentication?: AuthenticatorOptions;
  admissionPlugins?: readonly AdmissionPlugin[];
  watchCacheCapacity?: number;
  bookmarkIntervalMs?: number;
  auditCapacity?: number;
  /** Create the bootstrap RBAC policy, system namespaces and their default service accounts (default true). */
  bootstrap?: boolean;
  /**
   * The controller manager and scheduler this API server reports on in componentstatuses (its
   * machine's, at 127.0.0.1:10257 and :10259); etcd-0 is its own etcd, checked here.
   */
  componentChecks?: () => ComponentCheck[];
  /** How this server reaches kubelets (pods/log); without one, a log request fails as unreachable. */
  kubeletClient?: KubeletClient;
  /** --advertise-address and --secure-port as "ip:port", which discovery (/api) tells clients. */
  advertiseAddress?: string;
  /** --service-account-signing-key-file (kubeadm's sa.key, the same on every replica): signs and verifies TokenRequest's tokens. */
  serviceAccountKey?: string;
}

const VERBS: readonly Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
/** lifecycle.go timeToWaitForReady. */
const ADMISSION_READY_WAIT_MS = 10_000;

/**
 * Whether admission would wait for its informers: writes in a namespace, and to namespaces. The
 * NamespaceLifecycle plugin lets other cluster-scoped objects through before it waits.
 */
function waitsForAdmissionInformers(req: ApiRequest, resource: ResourceInfo): boolean {
  if (req.verb === 'get' || req.verb === 'list' || req.verb === 'watch') return false;
  return resource.namespaced || resource.kind === 'Namespace';
}
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'; // upstream utilrand's alphanumerics (no vowels, no 0/1/3)
/**
 * Resources served without a watch cache: reads and watches go to etcd. mirrors
 * pkg/kubeapiserver/default_storage_factory_builder.go DefaultWatchCacheSizes (events: 0), since
 * events are many, short-lived and rarely watched.
 */
const WATCH_CACHE_DISABLED = new Set(['/events', 'events.k8s.io/events']);

export const KUBERNETES_VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0', platform: 'linux/amd64' };

export class ApiServer implements ApiEndpoint {
  readonly name: string;
  readonly metrics = new ApiMetrics();
  readonly audit: AuditLog;
  private readonly etcd: EtcdClient;
  private readonly clock: CacheClock;
  private readonly store: EtcdStore;
  private readonly caches = new Map<string, WatchCache>();
  private readonly rbacBindingsMemo = new Map<string, { cache: WatchCache; rv: number; items: KubeObject[] }>();
  private readonly authenticator: Authenticator;
  private readonly authorizer: Authorizer;
  private readonly admission: AdmissionChain;
  private readonly admissionContext: AdmissionContext;
  private ready = false;
  /** Every watch cache has listed etcd: reads may use them, admission may decide. */
  private cachesReady = false;
  private readonly admissionWaiters: (() => void)[] = [];
  private readonly readyCallbacks: (() => void)[] = [];
  private nextAuditId = 1;
  private compactor: { stop(): void } | undefined;

  constructor(private readonly options: ApiServerOptions) {
    this.name = options.name ?? 'kube-apiserver';
    this.etcd = options.etcd;
    this.clock = options.clock ?? options.etcd.clock;
    this.store = new EtcdStore(this.etcd);
    this.audit = new AuditLog(options.auditCapacity, this.name);
    for (const r of SERVED_RESOURCES) {
      // nothing to cache for what is not stored (componentstatuses, the reviews) or not cached (events)
      if (!r.verbs.includes('watch') || WATCH_CACHE_DISABLED.has(`${r.group}/${r.resource}`)) continue;
      this.caches.set(`${r.group}/${r.resource}`, new WatchCache(r, this.etcd, this.clock, {
        capacity: options.watchCacheCapacity, bookmarkIntervalMs: options.bookmarkIntervalMs,
      }));
    }
    this.authenticator = new Authenticator({
      ...options.authentication,
      serviceAccountExists: (ns, name) => this.cachedObject('', 'serviceaccounts', ns, name) !== undefined,
      ...(options.serviceAccountKey !== undefined ? { serviceAccountKey: options.serviceAccountKey } : {}),
      nowSeconds: () => Math.floor((SIMULATION_EPOCH_MS + this.clock.now()) / 1000),
    });
    // kubeadm's --authorization-mode=Node,RBAC, after the privileged-group authorizer
    this.authorizer = new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), new NodeAuthorizer((node) => this.podsOnNode(node)), new RbacAuthorizer(this.rbacLister())]);
    this.admission = new AdmissionChain(options.admissionPlugins ?? DEFAULT_ADMISSION_PLUGINS);
    this.admissionContext = {
      cached: (g, r, ns, name) => this.cachedObject(g, r, ns, name),
      // '' lists a cluster-scoped resource (its objects have no namespace to match)
      cachedList: (g, r, ns) => this.cache(g, r)?.list(ns === '' ? { kind: '' } : { kind: '', namespace: ns }) ?? [],
      liveGet: (g, r, ns, name, cb) => {
        const info = servedResource(g, r);
        if (!info) return cb(undefined);
        this.store.get(objectKey(storagePrefix(info), info.namespaced ? ns : undefined, name), (res) => (res.ok ? cb(res.value?.object) : cb(undefined, res.status)));
      },
      randomSuffix: (n) => this.randomSuffix(n),
    };
  }

  /** Fills the caches, then runs the bootstrap post-start hook; ready after both. */
  start(): void {
    const interval = this.options.compactionIntervalMs ?? COMPACTION_INTERVAL_MS;
    if (interval > 0) this.compactor = startCompactor(this.etcd, this.clock, { intervalMs: interval });
    let pending = this.caches.size;
    for (const c of this.caches.values()) {
      c.onReady(() => {
        if (--pending > 0) return;
        this.cachesReady = true;
        for (const waiter of this.admissionWaiters.splice(0)) waiter();
        this.postStart();
      });
      c.start();
    }
  }

  stop(): void {
    this.compactor?.stop();
    for (const c of this.caches.values()) c.stop();
    this.ready = false;
  }

  get isReady(): boolean {
    return this.ready;
  }

  onReady(cb: () => void): void {
    if (this.ready) cb();
    else this.readyCallbacks.push(cb);
  }

  private postStart(): void {
    const markReady = (): void => {
      this.ready = true;
      for (const cb of this.readyCallbacks.splice(0)) cb();
    };
    if (this.options.bootstrap === false) return markReady();
    const objects = bootstrapObjects();
    const next = (i: number): void => {
      if (i >= objects.length) return markReady();
      const { resource, object } = objects[i]!;
      const info = servedResource(resource.group, resource.resource)!;
      if (this.cachedObject(info.group, info.resource, object.metadata.namespace, object.metadata.name ?? '')) return next(i + 1);
      this.createInternal(info, object, () => next(i + 1));
    };
    next(0);
  }

  /** A create as the system itself (bootstrap): strategy and storage, no authz or admission. */
  private createInternal(info: ResourceInfo, object: KubeObject, done: () => void): void {
    const obj = { ...object, apiVersion: apiVersionOf(info), kind: info.kind, metadata: { ...object.metadata } };
    obj.metadata.uid = this.newUid();
    obj.metadata.creationTimestamp = rfc3339Now(this.clock.now());
    const key = objectKey(storagePrefix(info), info.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name ?? '');
    this.store.create(key, obj, () => done());
  }

  // ---- the pipeline -----------------------------------------------------------------------------

  request(req: ApiRequest, cb: ResponseCallback): void {
    this.serve(req, cb);
  }

  /** request(), also telling the callback the request's URI (made once, for the audit record). */
  serve(pathOrResourceRequest: ApiRequest, cb: (res: ApiResponse, requestURI: string) => void): void {
    // GET /api/v1/namespaces/default/pods is the resource request it names (RequestInfoFactory)
    const resolved = resourceRequestOfPath(pathOrResourceRequest);
    const req = resolved && 'request' in resolved ? resolved.request : pathOrResourceRequest;
    // a path's answer is the serializer's bytes (`get --raw` prints them as they are)
    if (resolved && 'request' in resolved) cb = asSerializedJson(cb);
    const startMs = this.clock.now();
    const audit = this.newAudit(req, startMs);
    let answered = false;
    const respond = (code: number, body: ResponseBody, warnings?: string[]): void => {
      if (answered) throw new Error('invariant violated: a request is answered once');
      answered = true;
      audit.code = code;
      if (typeof body === 'object' && body.kind === 'Status' && 'message' in body && body.message) audit.message = body.message;
      audit.stage('ResponseComplete', this.clock.now(), String(code), code < 400);
      this.audit.append(audit);
      this.observe(req, code, startMs);
      const res = { code, body, servedBy: this.name, ...(warnings && warnings.length > 0 ? { warnings } : {}) };
      cb(res, audit.requestURI);
    };
    try {
      this.pipeline(req, audit, respond);
    } catch (e) {
      // a bug must not take the server down: answer 500 like the panic-recovery filter
      if (!answered) respond(500, newInternalError(e instanceof Error ? e.message : String(e)));
    }
  }

  watch(req: ApiRequest, handlers: ApiWatchHandlers): ApiWatchHandle {
    if (req.subresource === 'log') return this.followLog(req, handlers);
    let stopped = false;
    // recorded in the audit log and metrics like any request; the stream is set up below
    this.request({ ...req, verb: 'watch' }, () => {});
    const refused = this.authorizeRequest({ ...req, verb: 'watch' });
    if ('status' in refused) {
      handlers.onClose(refused.status);
      return { stop: () => {} };
    }
    const scope = this.scope(req, refused.resource, refused.user, undefined, () => {});
    const handle = startWatch(scope, {
      onEvent: (ev) => {
        if (!stopped) handlers.onEvent(ev);
      },
      onClose: (err) => {
        if (stopped) return;
        stopped = true;
        handlers.onClose(err);
      },
    }, (ms, fn) => this.clock.setTimer(ms, fn));
    return {
      stop: () => {
        if (stopped) return;
        handle?.stop();
        stopped = true;
      },
    };
  }

  /** GET pods/{name}/log?follow=true: a request whose answer streams (authorized as a get; not in the audit log here). */
  private followLog(req: ApiRequest, handlers: ApiWatchHandlers): ApiWatchHandle {
    const get = { ...req, verb: 'get' as const };
    const refused = this.authorizeRequest(get);
    if ('status' in refused) {
      handlers.onClose(refused.status);
      return { stop: () => {} };
    }
    return followLog(this.scope(get, refused.resource, refused.user, undefined, () => {}), this.options.kubeletClient, handlers);
  }

  private pipeline(
    req: ApiRequest,
    audit: AuditRecord,
    respond: (code: number, body: ResponseBody, warnings?: string[]) => void,
  ): void {
    if (!req || typeof req !== 'object' || !VERBS.includes(req.verb)) return answerStatus(respond, newBadRequest('unknown verb'));
    const checked = this.authorizeRequest(req, audit);
    if ('status' in checked) return answerStatus(respond, checked.status);
    if (req.path !== undefined) return this.nonResource(req.path, respond);
    if (!this.cachesReady && waitsForAdmissionInformers(req, checked.resource)) {
      return this.afterAdmissionInformers(req, checked.resource, () => this.dispatch(req, checked, audit, respond), respond);
    }
    this.dispatch(req, checked, audit, respond);
  }

  /** An authorized resource request, to its handler. */
  private dispatch(
    req: ApiRequest,
    checked: { user: UserInfo; resource: ResourceInfo },
    audit: AuditRecord,
    answer: (code: number, body: ResponseBody, warnings?: string[]) => void,
  ): void {
    const deprecation = deprecationWarning(checked.resource);
    const respond = deprecation === undefined ? answer : (code: number, body: ResponseBody, warnings?: string[]) => answer(code, body, [deprecation, ...(warnings ?? [])]);
    if (checked.resource.group === '' && checked.resource.resource === 'componentstatuses') {
      if (req.verb !== 'get' && req.verb !== 'list') return respond(405, methodNotAllowed());
      const etcd: ComponentCheck = {
        name: 'etcd-0',
        check: (done) => this.etcd.range({ key: 'health' }, (r) => done(r.ok ? { healthy: true, message: 'ok' } : { healthy: false, error: r.error.message }), { timeoutMs: 2000 }),
      };
      return serveComponentStatuses([...(this.options.componentChecks?.() ?? []), etcd], req.verb === 'get' ? req.name ?? '' : undefined, (code, body) => respond(code, body as ResponseBody));
    }
    if (checked.resource === ACCESS_REVIEW_RESOURCE || checked.resource === RULES_REVIEW_RESOURCE || checked.resource === SELF_SUBJECT_REVIEW_RESOURCE) {
      if (req.verb !== 'create') return respond(405, methodNotAllowed());
      const review = checked.resource === ACCESS_REVIEW_RESOURCE
        ? selfSubjectAccessReview(req.body, checked.user, this.authorizer)
        : checked.resource === RULES_REVIEW_RESOURCE
          ? selfSubjectRulesReview(req.body, checked.user, this.authorizer)
          : selfSubjectReview(checked.user);
      return respond(review.code, review.body);
    }
    const scope = this.scope(req, checked.resource, checked.user, audit, respond);
    if (req.subresource === 'log') {
      if (req.verb !== 'get') return respond(405, methodNotAllowed());
      return handleLog(scope, this.options.kubeletClient);
    }
    if (req.subresource === 'token' && checked.resource.resource === 'serviceaccounts') {
      if (req.verb !== 'create') return respond(405, methodNotAllowed());
      return handleTokenRequest(scope, this.options.serviceAccountKey, () => this.newUid());
    }
    if (req.subresource === 'exec') {
      // a connect subresource: POST (SPDY) authorizes as create, GET (WebSocket) as get
      if (req.verb !== 'create' && req.verb !== 'get') return respond(405, methodNotAllowed());
      return handleExec(scope, this.options.kubeletClient);
    }
    switch (req.verb) {
      case 'get':
        return handleGet(scope);
      case 'list':
        return handleList(scope);
      case 'create':
        return handleCreate(scope);
      case 'update':
        return handleUpdate(scope);
      case 'patch':
        return handlePatch(scope);
      case 'delete':
        return handleDelete(scope);
      case 'deletecollection':
        return handleDeleteCollection(scope);
      case 'watch':
        // watches stream through watch(); a plain request only records the admission to the stream
        return respond(200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
    }
  }

  /** Authentication, impersonation, resource resolution and authorization. */
  private authorizeRequest(req: ApiRequest, audit?: AuditRecord): { user: UserInfo; resource: ResourceInfo } | { status: Status } {
    const authn = this.authenticator.authenticate(req.credentials);
    if (!authn.ok) {
      audit?.stage('Authentication', this.clock.now(), 'invalid credentials', false);
      return { status: newUnauthorized('Unauthorized') };
    }
    let user = authn.user;
    audit?.authenticated(this.clock.now(), authn.method, user);
    if (req.impersonate) {
      const imp = impersonate(user, req.impersonate, this.authorizer);
      if (!imp.ok) {
        if ('badRequest' in imp) return { status: newBadRequest(imp.badRequest) };
        audit?.stage('Impersonation', this.clock.now(), `denied: ${imp.attributes.resource} ${imp.attributes.name}`, false);
        const a = imp.attributes;
        return { status: newForbidden({ group: a.apiGroup ?? '', resource: a.resource ?? '' }, a.name ?? '', forbiddenText(a, imp.reason)) };
      }
      audit?.stage('Impersonation', this.clock.now(), `as ${imp.user.name}`, true);
      user = imp.user;
      if (audit) audit.impersonatedUser = user;
    }
    const attrs = this.attributes(req, user);
    if ('status' in attrs) return attrs;
    const decision = this.authorizer.authorize(attrs.attributes);
    if (audit) {
      const allowed = decision.decision === 'Allow';
      audit.decision = allowed ? 'allow' : 'forbid';
      audit.reason = decision.reason;
      audit.stage('Authorization', this.clock.now(), allowed ? decision.reason : `forbid: ${decision.reason || 'no RBAC rule allows it'}`, allowed);
    }
    if (decision.decision !== 'Allow') {
      const a = attrs.attributes;
      const gr = a.resourceRequest ? { group: a.apiGroup ?? '', resource: a.resource ?? '' } : undefined;
      return { status: newForbidden(gr, a.name ?? '', forbiddenText(a, decision.reason)) };
    }
    return { user, resource: attrs.resource };
  }

  private attributes(req: ApiRequest, user: UserInfo): { attributes: Attributes; resource: ResourceInfo } | { status: Status } {
    if (req.path !== undefined) {
      const placeholder = SERVED_RESOURCES[0]!;
      // authorized by its path alone (RequestInfo.Path is the URL's path, without the query)
      return { attributes: { user, verb: req.verb, resourceRequest: false, path: splitQuery(req.path)[0] }, resource: placeholder };
    }
    const group = req.group ?? '';
    const resource = reviewResource(group, req.resource) ?? servedResource(group, req.resource ?? '');
    if (!resource) return { status: newNotFound({ group: '', resource: '' }, '') };
    if (req.subresource && !['status', 'scale', 'binding', 'finalize', 'eviction', 'log', 'exec', 'token'].includes(req.subresource)) {
      return { status: notFoundPage() };
    }
    if (req.subresource && !resource.subresources.includes(req.subresource)) return { status: notFoundPage() };
    let name = req.name;
    if ((req.verb === 'list' || req.verb === 'watch') && !name && req.query?.fieldSelector) {
      const m = /(?:^|,)metadata\.name==?([^,]*)/.exec(req.query.fieldSelector);
      if (m) name = m[1];
    }
    const a: Attributes = { user, verb: req.verb, resourceRequest: true, apiGroup: group, apiVersion: resource.version, resource: resource.resource };
    if (req.subresource) a.subresource = req.subresource;
    if (resource.namespaced && req.namespace) a.namespace = req.namespace;
    if (name) a.name = name;
    return { attributes: a, resource };
  }

  private nonResource(pathWithQuery: string, respond: (code: number, body: ResponseBody) => void): void {
    const [path, query] = splitQuery(pathWithQuery);
    const health = /^\/(livez|readyz|healthz)(?:\/(.+))?$/.exec(path);
    if (health) {
      const endpoint = health[1] as 'livez' | 'readyz' | 'healthz';
      const checks = this.healthChecks(endpoint);
      if (health[2] === undefined) return runHealthChecks(endpoint, checks, query, (a) => respond(a.code, a.body));
      const one = checks.find(([name]) => name === health[2]);
      return one ? runOneHealthCheck(one[1], (a) => respond(a.code, a.body)) : respond(404, notFoundPage());
    }
    const asResource = resourceRequestOfPath({ verb: 'get', path: pathWithQuery });
    if (asResource && 'watch' in asResource) {
      // a watch through a resource path: a stream, which one answer cannot carry
      return answerStatus(respond, newBadRequest('a watch through a raw path is not simulated: use kubectl get -w'));
    }
    const discovery = discoveryDocument(path, this.options.advertiseAddress ?? '127.0.0.1:6443');
    if (discovery) return respond(200, JSON.stringify(discovery) + '\n'); // the JSON encoder's newline
    switch (path) {
      case '/metrics':
        return respond(200, this.metrics.expose());
      case '/version':
        return respond(200, JSON.stringify(KUBERNETES_VERSION, null, 2));
      default:
        return respond(404, notFoundPage());
    }
  }

  /**
   * The checks this server runs, per endpoint (upstream's names; its many other post-start hooks
   * have no counterpart here). The "etcd" check is a quorum read of the key "health", as
   * apiserver's etcd3 health check does, so a load balancer stops sending requests to a replica
   * that cannot reach a working etcd (cut off by a partition, or etcd lost quorum). Upstream's
   * --etcd-readycheck-timeout is 2 s; 800 ms here keeps the answer inside our load balancer's 1 s
   * check timeout, so "not ready" is told apart from "unreachable".
   */
  private healthChecks(endpoint: 'livez' | 'readyz' | 'healthz'): [string, HealthCheck][] {
    const ok: HealthCheck = (done) => done();
    // one quorum read answers both "etcd" and "etcd-readiness" (upstream's two checks read the same key)
    let etcdVerdict: { error?: string } | undefined;
    const etcd: HealthCheck = (done) => {
      if (etcdVerdict) return done(etcdVerdict.error);
      this.etcd.range({ key: 'health' }, (r) => {
        etcdVerdict = r.ok ? {} : { error: r.error.message };
        done(etcdVerdict.error);
      }, { timeoutMs: 800 });
    };
    const informerSync: HealthCheck = (done) => done(this.cachesReady ? undefined : 'the watch caches have not listed etcd yet');
    const bootstrapped: HealthCheck = (done) => done(this.ready ? undefined : 'not finished');
    const checks: [string, HealthCheck][] = [['ping', ok], ['log', ok], ['etcd', etcd]];
    if (endpoint === 'readyz') checks.push(['etcd-readiness', etcd], ['informer-sync', informerSync]);
    checks.push(['poststarthook/rbac/bootstrap-roles', bootstrapped], ['poststarthook/scheduling/bootstrap-system-priority-classes', bootstrapped]);
    if (endpoint === 'readyz') checks.push(['shutdown', ok]);
    return checks;
  }

  private scope(
    req: ApiRequest,
    resource: ResourceInfo,
    user: UserInfo,
    audit: AuditRecord | undefined,
    respond: (code: number, body: ResponseBody, warnings?: string[]) => void,
  ): Scope {
    return {
      req, resource, user, store: this.store,
      cache: this.cache(resource.group, resource.resource),
      cacheFor: this.cacheForFn,
      admission: this.admission,
      admissionContext: this.admissionContext,
      strategy: this.strategyFn,
      nowMs: this.nowFn,
      after: this.afterFn,
      randomInt: this.randomIntFn,
      audit,
      stage: recordStage,
      respond,
      fail: failScope,
    };
  }

  // ---- helpers ------------------------------------------------------------------------------------

  /**
   * Admission's informers (namespaces, quotas, limit ranges, service accounts, ...) are this
   * server's watch caches. A write that needs them waits until they have listed etcd, for at most
   * 10 s (admission/plugin/namespace/lifecycle WaitForReady: timeToWaitForReady), then is refused.
   */
  private afterAdmissionInformers(req: ApiRequest, resource: ResourceInfo, go: () => void, respond: (code: number, body: ResponseBody) => void): void {
    let settled = false;
    const timer = this.clock.setTimer(ADMISSION_READY_WAIT_MS, () => {
      if (settled) return;
      settled = true;
      const name = req.name ?? (req.body as { metadata?: { name?: string } } | undefined)?.metadata?.name ?? '';
      answerStatus(respond, newForbidden({ group: resource.group, resource: resource.resource }, name, 'not yet ready to handle request'));
    });
    this.admissionWaiters.push(() => {
      if (settled) return;
      settled = true;
      timer.cancel();
      try {
        go();
      } catch (e) {
        // as in serve(): a bug answers 500 rather than breaking the cache that woke us
        answerStatus(respond, newInternalError(e instanceof Error ? e.message : String(e)));
      }
    });
  }

  /**
   * The watch cache's current objects of one resource, for observers outside the simulation
   * (Cluster.snapshot(), the page's cluster view): no request, no audit record, no simulated I/O,
   * so looking never changes what happens. Empty until the cache is ready.
   */
  peek(group: string, resource: string): readonly KubeObject[] {
    const cache = this.cache(group, resource);
    return cache?.isReady ? cache.list({ kind: '' }) : [];
  }

  private cache(group: string, resource: string): WatchCache | undefined {
    return this.caches.get(`${group}/${resource}`);
  }

  private cachedObject(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const info = servedResource(group, resource);
    if (!info) return undefined;
    return this.cache(group, resource)?.get(objectKey(storagePrefix(info), info.namespaced ? namespace : undefined, name));
  }

  /** The scope's strategy and clock functions, made once rather than for every request. */
  private readonly strategyFn = (): StrategyContext => this.strategyContext();
  private readonly nowFn = (): number => this.clock.now();
  private readonly afterFn = (delayMs: number, fn: () => void): void => void this.clock.setTimer(delayMs, fn);
  private readonly randomIntFn = (n: number): number => this.options.rng.nextInt(n);
  private readonly cacheForFn = (group: string, resource: string): WatchCache | undefined => this.cache(group, resource);

  /** The pods bound to a node, from the pod watch cache's spec.nodeName index (the Node authorizer's graph). */
  private podsOnNode(node: string): Pod[] {
    const p = buildPredicate('Pod', { fieldSelector: `spec.nodeName=${node}` });
    return (p.ok ? this.cache('', 'pods')?.list(p.predicate) ?? [] : []) as Pod[];
  }

  private rbacLister(): RbacLister {
    const G = 'rbac.authorization.k8s.io';
    // every request is authorized against the bindings: list them again only after one changed
    const memo = this.rbacBindingsMemo;
    const policyCaches = ['clusterrolebindings', 'rolebindings', 'clusterroles', 'roles'].map((r) => this.cache(G, r));
    const listed = <T>(resource: string, namespace: string): T[] => {
      const cache = this.cache(G, resource);
      if (!cache) return [];
      const key = `${resource}/${namespace}`;
      const hit = memo.get(key);
      if (hit && hit.rv === cache.resourceVersion && hit.cache === cache) return hit.items as T[];
      const items = cache.list(namespace ? { kind: '', namespace } : { kind: '' });
      if (memo.size > 1000) memo.clear();
      memo.set(key, { cache, rv: cache.resourceVersion, items });
      return items as T[];
    };
    return {
      clusterRoleBindings: () => listed<ClusterRoleBinding>('clusterrolebindings', ''),
      roleBindings: (ns) => listed<RoleBinding>('rolebindings', ns),
      clusterRole: (name) => this.cachedObject(G, 'clusterroles', undefined, name) as ClusterRole | undefined,
      role: (ns, name) => this.cachedObject(G, 'roles', ns, name) as Role | undefined,
      // every change to an RBAC cache moves its counter up, so the sum moves on any of them
      policyVersion: () => policyCaches.reduce((n, c) => n + (c?.changes ?? 0), 0),
    };
  }

  private strategyContext(): StrategyContext {
    return { nowMs: this.clock.now(), newUid: () => this.newUid(), randomSuffix: (n) => this.randomSuffix(n) };
  }

  private newUid(): string {
    let hex = '';
    for (let i = 0; i < 32; i++) hex += this.options.rng.nextInt(16).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private randomSuffix(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += SUFFIX_ALPHABET[this.options.rng.nextInt(SUFFIX_ALPHABET.length)];
    return s;
  }

  private newAudit(req: ApiRequest, startMs: number): AuditRecord {
    const resourceRequest = req?.path === undefined && req?.resource !== undefined;
    const record = new AuditRecord(
      this.nextAuditId++, String(req?.verb), requestURI(req), startMs,
      resourceRequest ? req.resource : undefined, resourceRequest ? req.group ?? '' : '',
      resourceRequest ? req.namespace : undefined, resourceRequest ? req.name : undefined, resourceRequest ? req.subresource : undefined,
    );
    if (req?.userAgent !== undefined) record.userAgent = req.userAgent;
    return record;
  }

  private observe(req: ApiRequest, code: number, startMs: number): void {
    if (req?.path !== undefined || !VERBS.includes(req?.verb)) return;
    const info = reviewResource(req.group ?? '', req.resource) ?? servedResource(req.group ?? '', req.resource ?? '');
    const scope = req.name ? 'resource' : req.namespace && info?.namespaced ? 'namespace' : 'cluster';
    this.metrics.observe({
      verb: req.verb, dryRun: req.query?.dryRun === 'All', group: req.group ?? '', version: info?.version ?? '',
      resource: info?.resource ?? '', subresource: req.subresource ?? '', scope,
    }, code, (this.clock.now() - startMs) / 1000);
  }
}

/**
 * The warning every request to a deprecated resource gets (the deprecation filter's Warning
 * header): core/v1 Endpoints since v1.33 (KEP-4974), ComponentStatus since v1.19.
 */
function deprecationWarning(resource: ResourceInfo): string | undefined {
  if (resource.group !== '') return undefined;
  if (resource.resource === 'endpoints') return 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
  if (resource.resource === 'componentstatuses') return 'v1 ComponentStatus is deprecated in v1.19+';
  return undefined;
}

/** "/readyz?verbose&exclude=etcd" -> ["/readyz", its query]. */
function splitQuery(pathWithQuery: string): [string, HealthQuery] {
  const q = pathWithQuery.indexOf('?');
  return q < 0 ? [pathWithQuery, new Map()] : [pathWithQuery.slice(0, q), parseQuery(pathWithQuery.slice(q + 1))];
}

/** A callback that gets a successful object or list answer as its JSON text, fields in Go's order. */
function asSerializedJson(cb: (res: ApiResponse, requestURI: string) => void): (res: ApiResponse, requestURI: string) => void {
  return (res, uri) => cb(res.code < 300 && typeof res.body === 'object' ? { ...res, body: JSON.stringify(inGoFieldOrder(res.body)) + '\n' } : res, uri);
}

/** The review resources: answered at once from the request's user, never stored. */
function reviewResource(group: string, resource: string | undefined): ResourceInfo | undefined {
  for (const r of [ACCESS_REVIEW_RESOURCE, RULES_REVIEW_RESOURCE, SELF_SUBJECT_REVIEW_RESOURCE]) if (r.group === group && r.resource === resource) return r;
  return undefined;
}

/** An error answer: the Status with its code. */
function answerStatus(respond: (code: number, body: ResponseBody) => void, status: Status): void {
  respond(status.code, status);
}

/** Scope.fail: answers the Status (a function shared by every request's scope, not a closure each). */
function failScope(this: Scope, status: Status): void {
  this.respond(status.code, status);
}

/** Scope.stage: records a stage in the request's audit record (none for a watch stream's scope). */
function recordStage(this: Scope, stage: AuditStageName, detail: string, ok = true): void {
  this.audit?.stage(stage, this.nowMs(), detail, ok);
}

function forbiddenText(a: Attributes, reason: string): string {
  const fields: Parameters<typeof forbiddenMessage>[0] = { user: a.user.name, verb: a.verb, reason };
  if (a.resourceRequest) {
    fields.resource = a.resource ?? '';
    fields.group = a.apiGroup ?? '';
    if (a.subresource) fields.subresource = a.subresource;
    if (a.namespace) fields.namespace = a.namespace;
  } else {
    fields.path = a.path ?? '';
  }
  return forbiddenMessage(fields);
}

/** 405 for a verb a virtual resource does not support (only create for access reviews). */
/**
 * A verb the resource's storage does not implement has no route: go-restful's 405, which the API
 * server answers as NewGenericServerResponse(405) does.
 */
function methodNotAllowed(): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };
}

/** The 404 of an unknown path: "the server could not find the requested resource". */
function notFoundPage(): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
}

/** /api/v1/namespaces/default/pods/web, /apis/apps/v1/deployments?labelSelector=... */
export function requestURI(req: ApiRequest | undefined): string {
  if (!req) return '';
  if (req.path !== undefined) return req.path;
  const info = servedResource(req.group ?? '', req.resource ?? '');
  const version = info?.version ?? 'v1';
  let uri = req.group ? `/apis/${req.group}/${version}` : `/api/${version}`;
  if (req.namespace && info?.namespaced !== false) uri += `/namespaces/${req.namespace}`;
  uri += `/${req.resource ?? ''}`;
  if (req.name) uri += `/${req.name}`;
  if (req.subresource) uri += `/${req.subresource}`;
  // built without a parameter list or a key list per call: every request's audit record needs it
  let params = req.verb === 'watch' ? 'watch=true' : '';
  const q = req.query;
  if (q !== undefined) {
    for (let i = 0; i < URI_QUERY_KEYS.length; i++) {
      const k = URI_QUERY_KEYS[i]!;
      const v = q[k];
      if (v !== undefined && v !== '') params += `${params === '' ? '' : '&'}${k}=${escapeComponent(String(v))}`;
    }
  }
  return params === '' ? uri : `${uri}?${params}`;
}

/** The query parameters a request URI shows, in this order. */
const URI_QUERY_KEYS = ['labelSelector', 'fieldSelector', 'resourceVersion', 'limit', 'dryRun'] as const;

function rfc3339Now(ms: number): string {
  return rfc3339(ms);
}
