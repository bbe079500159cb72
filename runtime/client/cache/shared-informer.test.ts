import { describe, expect, it } from 'vitest';
import type { KubeObject, List, Status } from '../../api/index.ts';
import { createKernel, type Kernel } from '../../kernel/index.ts';
import type { ListerWatcher, WatchEvent, WatchHandlers } from './list-watch.ts';
import { SharedInformer, isTombstone, type DeletedFinalStateUnknown } from './shared-informer.ts';

type Obj = KubeObject & { spec?: { nodeName?: string } };

/**
 * A tiny fake API server for informer tests: a revisioned map of objects, an event log that
 * forgets old events (so a watch from an old version gets 410 Gone), and controllable failures.
 * Replies arrive 1 ms later, as kernel events.
 */
class FakeServer implements ListerWatcher<Obj> {
  rv = 0;
  objects = new Map<string, Obj>();
  log: { rv: number; event: WatchEvent<Obj> }[] = [];
  watchers = new Set<WatchHandlers<Obj>>();
  lists = 0;
  failLists = 0;
  /** The status a failing list returns (default: an etcd timeout). */
  failListsWith: Status | undefined;
  /** The resourceVersion each list asked for. */
  listVersions: string[] = [];
  constructor(private readonly k: Kernel) {}

  write(type: 'ADDED' | 'MODIFIED' | 'DELETED', name: string, nodeName?: string): void {
    const object: Obj = {
      metadata: { name, namespace: 'default', resourceVersion: String(++this.rv) },
      spec: { nodeName },
    };
    if (type === 'DELETED') this.objects.delete(name);
    else this.objects.set(name, object);
    const event = { type, object } as WatchEvent<Obj>;
    this.log.push({ rv: this.rv, event });
    for (const w of this.watchers) this.k.setTimer(1, () => w.onEvent(event));
  }

  compactLog(): void {
    this.log = [];
  }

  list(
    o: { resourceVersion: string },
    done: (r: { ok: true; value: List<Obj> } | { ok: false; error: Status }) => void,
  ): void {
    this.lists++;
    this.listVersions.push(o.resourceVersion);
    if (this.failLists > 0) {
      this.failLists--;
      const error = this.failListsWith ?? status(500, 'InternalError', 'etcdserver: request timed out');
      this.k.setTimer(1, () => done({ ok: false, error }));
      return;
    }
    const value: List<Obj> = {
      metadata: { resourceVersion: String(this.rv) },
      items: [...this.objects.values()],
    };
    this.k.setTimer(1, () => done({ ok: true, value }));
  }

  watch(o: { resourceVersion: string }, handlers: WatchHandlers<Obj>) {
    const from = Number(o.resourceVersion);
    const oldest = this.log[0]?.rv ?? this.rv + 1;
    if (from + 1 < oldest && from < this.rv) {
      this.k.setTimer(1, () =>
        handlers.onEvent({
          type: 'ERROR',
          object: status(410, 'Expired', `too old resource version: ${from} (${oldest - 1})`),
        }),
      );
      return { stop() {} };
    }
    for (const { rv, event } of this.log)
      if (rv > from) this.k.setTimer(1, () => handlers.onEvent(event));
    this.watchers.add(handlers);
    return { stop: () => this.watchers.delete(handlers) };
  }

  /** Ends every watch with "410 Gone", as the API server does when its watch cache moved on. */
  expireWatches(): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      this.k.setTimer(1, () =>
        w.onEvent({ type: 'ERROR', object: status(410, 'Expired', 'too old resource version') }),
      );
    }
  }

  closeWatches(): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      this.k.setTimer(1, () => w.onClose());
    }
  }
}

function status(code: number, reason: Status['reason'], message: string): Status {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    code,
    reason,
    message,
  };
}

function setup(resyncPeriodMs = 0) {
  const k = createKernel({ seed: 7 });
  const server = new FakeServer(k);
  const informer = new SharedInformer<Obj>(k, server, {
    resyncPeriodMs,
    indexers: { nodeName: (o) => (o.spec?.nodeName ? [o.spec.nodeName] : []) },
  });
  const seen: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => seen.push(`add ${o.metadata.name}`),
    onUpdate: (_old, o) => seen.push(`update ${o.metadata.name}@${o.metadata.resourceVersion}`),
    onDelete: (o) => seen.push(isTombstone(o) ? `tombstone ${o.key}` : `delete ${o.metadata.name}`),
  });
  return { k, server, informer, seen };
}

describe('SharedInformer (client-go reflector and shared informer semantics)', () => {
  it('lists, then watches from the list resourceVersion, keeping the cache and handlers in step', () => {
    const { k, server, informer, seen } = setup();
    server.write('ADDED', 'a', 'node-1');
    informer.start();
    k.runFor(10);
    expect(informer.hasSynced).toBe(true);
    server.write('ADDED', 'b', 'node-1');
    server.write('MODIFIED', 'a', 'node-2');
    server.write('DELETED', 'b');
    k.runFor(10);
    expect(seen).toEqual(['add a', 'add b', 'update a@3', 'delete b']);
    expect(informer.lister.get('default', 'a')?.spec?.nodeName).toBe('node-2');
    expect(informer.lister.byIndex('nodeName', 'node-2').map((o) => o.metadata.name)).toEqual([
      'a',
    ]);
    expect(informer.lister.byIndex('nodeName', 'node-1')).toEqual([]);
    expect(informer.lastResourceVersion).toBe('4');
  });

  it('resumes a normally closed watch from the last version seen, without relisting', () => {
    const { k, server, informer, seen } = setup();
    informer.start();
    k.runFor(10);
    server.closeWatches();
    server.write('ADDED', 'late');
    k.runFor(10);
    expect(server.lists).toBe(1);
    expect(seen).toEqual(['add late']);
  });

  it('relists after 410 Gone and turns deletions it missed into tombstones', () => {
    const { k, server, informer, seen } = setup();
    server.write('ADDED', 'a');
    server.write('ADDED', 'b');
    informer.start();
    k.runFor(10);
    const watchers = [...server.watchers];
    server.watchers.clear(); // the informer misses these events...
    server.write('DELETED', 'a');
    server.write('ADDED', 'c');
    server.compactLog(); // ...and the server forgets them
    for (const w of watchers) server.watchers.add(w);
    server.expireWatches();
    k.runFor(10);
    expect(server.lists).toBe(2);
    expect(seen).toEqual(['add a', 'add b', 'update b@2', 'add c', 'tombstone default/a']);
    expect(
      informer.lister
        .list()
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['b', 'c']);
  });

  it('lists first at resourceVersion "0" (the watch cache), and after an expired watch at the last version seen', () => {
    const { k, server, informer } = setup();
    server.write('ADDED', 'a');
    informer.start();
    k.runFor(10);
    server.write('ADDED', 'b');
    k.runFor(10);
    server.expireWatches();
    k.runFor(10);
    expect(server.listVersions).toEqual(['0', '2']);
  });

  it('after a list at a version the server no longer has, lists at "" (the latest, from etcd)', () => {
    const { k, server, informer } = setup();
    server.write('ADDED', 'a');
    server.failLists = 1;
    server.failListsWith = status(410, 'Expired', 'The resourceVersion for the provided list is too old.');
    informer.start();
    k.runFor(1 + 800 + 1);
    expect(server.listVersions).toEqual(['0', '']);
    expect(informer.hasSynced).toBe(true);
    server.expireWatches();
    k.runFor(10);
    expect(server.listVersions).toEqual(['0', '', '1']);
  });

  it('retries a failed list with exponential back-off (800 ms, then 1600 ms)', () => {
    const { k, server, informer } = setup();
    server.failLists = 2;
    informer.start();
    k.runFor(1 + 800);
    expect(server.lists).toBe(2);
    expect(informer.hasSynced).toBe(false);
    k.runFor(1 + 1600);
    expect(server.lists).toBe(3);
    k.runFor(2);
    expect(informer.hasSynced).toBe(true);
  });

  it('re-delivers every cached object as an update each resync period', () => {
    const { k, server, informer, seen } = setup(30_000);
    server.write('ADDED', 'a');
    informer.start();
    k.runFor(30_000);
    expect(seen).toEqual(['add a', 'update a@1']);
  });

  it('replays the cache as adds to a handler registered late', () => {
    const { k, server, informer } = setup();
    server.write('ADDED', 'a');
    informer.start();
    k.runFor(10);
    const late: string[] = [];
    informer.addEventHandler({ onAdd: (o) => late.push(o.metadata.name!) });
    expect(late).toEqual(['a']);
  });

  it('passes a tombstone that carries the last known object', () => {
    const { k, server, informer } = setup();
    server.write('ADDED', 'x');
    informer.start();
    k.runFor(10);
    let got: Obj | DeletedFinalStateUnknown<Obj> | undefined;
    informer.addEventHandler({ onDelete: (o) => (got = o) });
    informer.replace([], '9');
    expect(got && isTombstone(got) ? got.obj.metadata.name : undefined).toBe('x');
  });
});
