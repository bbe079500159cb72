// The ServiceAccount controller: every active namespace has a "default" ServiceAccount.
// mirrors pkg/controller/serviceaccount/serviceaccounts_controller.go (syncNamespace): namespace
// adds and updates, and deletions of a managed account, queue the namespace; the sync creates
// each missing account. Pods rely on it: the ServiceAccount admission plugin rejects a pod whose
// namespace has no "default" account yet, so a Deployment in a new namespace waits for this.
import type { Namespace, ServiceAccount } from '../../api/index.ts';
import { RateLimitingQueue, type RestClient, type SharedInformer, runWorkers, type WorkerPool } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';

/** The accounts ensured in every namespace (ServiceAccountsControllerOptions.ServiceAccounts). */
export const MANAGED_SERVICE_ACCOUNTS = ['default'] as const;

/** What a namespace needs created: the managed accounts it lacks, if it is Active. */
export function missingServiceAccounts(
  namespace: Namespace | undefined,
  existing: ReadonlySet<string>,
): string[] {
  if (
    !namespace ||
    namespace.metadata.deletionTimestamp ||
    namespace.status?.phase === 'Terminating'
  )
    return [];
  return MANAGED_SERVICE_ACCOUNTS.filter((name) => !existing.has(name));
}

export interface ServiceAccountControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  namespaces: SharedInformer<Namespace>;
  serviceAccounts: SharedInformer<ServiceAccount>;
  onLog?: (message: string) => void;
}

export class ServiceAccountController {
  private readonly queue: RateLimitingQueue<string>;
  private workers: WorkerPool | undefined;

  constructor(private readonly o: ServiceAccountControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    o.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name!),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name!),
    });
    o.serviceAccounts.addEventHandler({
      onDelete: (obj) => {
        const sa = 'metadata' in obj ? obj : obj.obj;
        if ((MANAGED_SERVICE_ACCOUNTS as readonly string[]).includes(sa.metadata.name ?? '')) {
          this.queue.add(sa.metadata.namespace ?? '');
        }
      },
    });
  }

  start(): void {
    this.workers = runWorkers(
      this.queue,
      this.o.clock,
      1,
      (key, done) => this.syncNamespace(key, done),
      (key, error) => this.o.onLog?.(`syncing namespace ${key}: ${error}`),
    );
  }

  stop(): void {
    this.workers?.stop();
    this.queue.shutDown();
  }

  private syncNamespace(name: string, done: (error?: string) => void): void {
    if (!this.o.namespaces.hasSynced || !this.o.serviceAccounts.hasSynced)
      return done('caches not synced yet');
    const existing = new Set(
      this.o.serviceAccounts.lister.listInNamespace(name).map((sa) => sa.metadata.name ?? ''),
    );
    const missing = missingServiceAccounts(this.o.namespaces.lister.get('', name), existing);
    if (missing.length === 0) return done();
    let pending = missing.length;
    const errors: string[] = [];
    for (const saName of missing) {
      const body: ServiceAccount = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: saName, namespace: name },
      };
      this.o.client.request(
        { verb: 'create', group: '', resource: 'serviceaccounts', namespace: name, body },
        (res) => {
          // 409 AlreadyExists: our cache was behind; 403 in a terminating namespace: nothing to do
          if (res.code !== 201 && res.code !== 409 && res.code !== 403)
            errors.push(`${saName}: ${res.code}`);
          if (--pending === 0) done(errors.length > 0 ? errors.join('; ') : undefined);
        },
      );
    }
  }
}
