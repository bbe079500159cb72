// The root CA certificate publisher: every namespace gets a ConfigMap "kube-root-ca.crt" holding the
// cluster's CA bundle, which the projected service-account volume of every pod mounts as ca.crt so
// its processes can verify the API server. mirrors pkg/controller/certificates/rootcacertpublisher/
// publisher.go: namespace adds and updates, and updates or deletions of the ConfigMap, queue the
// namespace; the sync creates the ConfigMap, or puts back its data and description annotation.
import type { ConfigMap, Namespace } from '../../api/index.ts';
import { RateLimitingQueue, type RestClient, type SharedInformer, runWorkers, type WorkerPool } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCACertPublisherOptions {
  clock: ControllerClock;
  client: RestClient;
  namespaces: SharedInformer<Namespace>;
  configMaps: SharedInformer<ConfigMap>;
  /** --root-ca-file's content. */
  rootCA: string;
  onLog?: (message: string) => void;
}

/** What the sync must do for a namespace's ConfigMap: create it, update it, or nothing. */
export function publisherAction(existing: ConfigMap | undefined, rootCA: string): 'create' | 'update' | 'none' {
  if (!existing) return 'create';
  const data = existing.data ?? {};
  const same = Object.keys(data).length === 1 && data['ca.crt'] === rootCA;
  return same && (existing.metadata.annotations?.[DESCRIPTION_ANNOTATION] ?? '') !== '' ? 'none' : 'update';
}

export class RootCACertPublisher {
  private readonly queue: RateLimitingQueue<string>;
  private workers: WorkerPool | undefined;

  constructor(private readonly o: RootCACertPublisherOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    o.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    const ours = (cm: ConfigMap): void => {
      if (cm.metadata.name === ROOT_CA_CONFIGMAP) this.queue.add(cm.metadata.namespace ?? '');
    };
    o.configMaps.addEventHandler({
      onUpdate: (_old, cm) => ours(cm),
      onDelete: (obj) => ours('metadata' in obj ? obj : obj.obj),
    });
  }

  start(): void {
    this.workers = runWorkers(this.queue, this.o.clock, 1, (key, done) => this.syncNamespace(key, done), (key, error) => this.o.onLog?.(`syncing namespace ${key}: ${error}`));
  }

  stop(): void {
    this.workers?.stop();
    this.queue.shutDown();
  }

  private syncNamespace(ns: string, done: (error?: string) => void): void {
    if (!this.o.namespaces.hasSynced || !this.o.configMaps.hasSynced) return done('caches not synced yet');
    const existing = this.o.configMaps.lister.get(ns, ROOT_CA_CONFIGMAP);
    const action = publisherAction(existing, this.o.rootCA);
    if (action === 'none') return done();
    const data = { 'ca.crt': this.o.rootCA };
    if (action === 'create') {
      const body: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, namespace: ns, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data };
      return this.o.client.request({ verb: 'create', group: '', resource: 'configmaps', namespace: ns, body }, (res) => {
        // no retry when the namespace is gone or terminating (403 NamespaceTerminating here)
        if (res.code === 201 || res.code === 404 || res.code === 403) return done();
        done(`create ${ns}/${ROOT_CA_CONFIGMAP}: code ${res.code}`);
      });
    }
    const body: ConfigMap = { ...existing!, data, metadata: { ...existing!.metadata, annotations: { ...existing!.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION } } };
    this.o.client.request({ verb: 'update', group: '', resource: 'configmaps', namespace: ns, name: ROOT_CA_CONFIGMAP, body }, (res) => {
      done(res.code === 200 ? undefined : `update ${ns}/${ROOT_CA_CONFIGMAP}: code ${res.code}`);
    });
  }
}
