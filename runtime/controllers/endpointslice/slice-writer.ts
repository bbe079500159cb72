// Writing EndpointSlices as the EndpointSlice and mirroring controllers both do: deletes, then
// updates, then creates, one at a time, remembering each write so a later sync does not decide on a
// cache that has not caught up with it. mirrors pkg/controller/endpointslice's reconciler.finalize
// and staging/src/k8s.io/endpointslice's EndpointSliceTracker (Has/ShouldSync/StaleSlices).
import type { EndpointSlice } from '../../api/index.ts';
import type { RestClient } from '../../client/index.ts';
import { forEachSerial, responseError } from '../namespace/serial.ts';

export interface SliceChanges {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

export class SliceWriter {
  /** What we wrote last, per owner key and slice name: a resourceVersion, or "deleted". */
  private readonly written = new Map<string, Map<string, string>>();

  constructor(private readonly client: RestClient) {}

  /** StaleSlices: a slice we wrote is missing, older than our write, or still there after our delete. */
  isStale(key: string, slices: readonly EndpointSlice[]): boolean {
    const written = this.written.get(key);
    if (!written) return false;
    const seen = new Map(slices.map((s) => [s.metadata.name ?? '', Number(s.metadata.resourceVersion ?? 0)]));
    for (const [name, rv] of written) {
      const have = seen.get(name);
      const caughtUp = rv === 'deleted' ? have === undefined : have !== undefined && have >= Number(rv);
      if (!caughtUp) return true;
      written.delete(name);
    }
    return false;
  }

  forget(key: string): void {
    this.written.delete(key);
  }

  /** Applies `changes` in namespace; `failed` hears of each refused write; done with the first error. */
  apply(key: string, namespace: string, changes: SliceChanges, failed: (verb: string, error: string) => void, done: (error?: string) => void): void {
    const written = this.written.get(key) ?? new Map<string, string>();
    this.written.set(key, written);
    let failure: string | undefined;
    const base = { group: 'discovery.k8s.io', resource: 'endpointslices', namespace };
    const steps: { verb: 'delete' | 'update' | 'create'; slice: EndpointSlice }[] = [
      ...changes.delete.map((slice) => ({ verb: 'delete' as const, slice })),
      ...changes.update.map((slice) => ({ verb: 'update' as const, slice })),
      ...changes.create.map((slice) => ({ verb: 'create' as const, slice })),
    ];
    forEachSerial(steps, ({ verb, slice }, next) => {
      const name = slice.metadata.name ?? '';
      const req = verb === 'create' ? { verb, ...base, body: slice } : verb === 'update' ? { verb, ...base, name, body: slice } : { verb, ...base, name };
      this.client.request(req, (res) => {
        if (verb === 'delete' && (res.code === 200 || res.code === 404)) written.set(name, 'deleted');
        else if (res.code === 200 || res.code === 201) {
          const out = res.body as EndpointSlice;
          written.set(out.metadata.name ?? '', out.metadata.resourceVersion ?? '0');
        } else {
          failure ??= responseError(res);
          failed(verb, responseError(res));
        }
        next();
      });
    }, () => done(failure));
  }
}
