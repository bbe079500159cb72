// Service cluster IPs. Our API server has no ClusterIP allocator of its own, so the cluster adds
// one as a mutating admission plugin shared by every replica, which is where the real one acts
// (pkg/registry/core/service/storage/alloc.go: allocClusterIPs runs in the Service REST create,
// before the object is stored). The real bitmap lives in etcd (a RangeAllocation object); ours
// lives in the cluster assembly, shared by the replicas, which keeps it consistent while the
// cluster runs but means an etcd snapshot restore does not restore it (documented).
// A Service that does not name an IP gets a random free one from 10.96.0.0/12; one that names an
// IP gets it unless taken; "None" is headless; ExternalName Services get none. Deleting a Service
// gives its IP back.
import type { KubeObject, Service } from '../api/index.ts';
import { newInvalid } from '../api/index.ts';
import type { AdmissionPlugin } from '../apiserver/index.ts';
import type { ClusterIpAllocator } from '../network/index.ts';

const SERVICE_KIND = { group: '', kind: 'Service' };

export function serviceIpAllocation(allocator: ClusterIpAllocator): AdmissionPlugin {
  return {
    name: 'ServiceClusterIPAllocation',
    admit(a, _ctx, done) {
      if (a.operation !== 'CREATE' || a.resource.resource !== 'services' || a.subresource || a.dryRun || !a.object) return done();
      const svc = a.object as Service;
      const spec = (svc.spec ??= {});
      if (spec.type === 'ExternalName' || spec.clusterIP === 'None') return done();
      const asked = spec.clusterIP ?? spec.clusterIPs?.[0];
      if (asked !== undefined && asked !== '') {
        if (!allocator.allocateSpecific(asked)) {
          return done(newInvalid(SERVICE_KIND, a.name, [{
            type: 'FieldValueInvalid', field: 'spec.clusterIPs', badValue: [asked],
            detail: `failed to allocate IP ${asked}: provided IP is already allocated`,
          }]));
        }
      } else {
        const ip = allocator.allocate();
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
      }
      spec.clusterIPs ??= [spec.clusterIP ?? ''];
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      done();
    },
    validate(a, _ctx, done) {
      if (a.operation === 'DELETE' && a.resource.resource === 'services' && !a.dryRun) {
        for (const ip of clusterIPsOf(a.oldObject)) allocator.release(ip);
      }
      done();
    },
  };
}

function clusterIPsOf(obj: KubeObject | undefined): string[] {
  const spec = (obj as Service | undefined)?.spec;
  return (spec?.clusterIPs ?? (spec?.clusterIP ? [spec.clusterIP] : [])).filter((ip) => ip !== '' && ip !== 'None');
}
