// ServiceAccount: every pod runs as a service account ("default" unless it names one), gets that
// account's API token mounted as a projected volume, and may only name an account that exists.
// mirrors plugin/pkg/admission/serviceaccount/admission.go (Admit, Validate, TokenVolumeSource).
import type { Pod, ServiceAccount, Volume } from '../../../api/index.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionPlugin } from '../types.ts';
import { containersOf, notAList, podBeingCreated } from './pod-helpers.ts';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** The projected volume upstream's TokenVolumeSource builds (token, kube-root-ca.crt, namespace). */
function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  } as unknown as Volume;
}

const isMirror = (pod: Pod): boolean => pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;

export const serviceAccountAdmission: AdmissionPlugin = {
  name: 'ServiceAccount',
  admit(a, ctx, done) {
    const pod = podBeingCreated(a);
    if (!pod || isMirror(pod)) return done();
    if (!pod.spec.serviceAccountName) pod.spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
    pod.spec.serviceAccount = pod.spec.serviceAccountName;
    if (pod.spec.automountServiceAccountToken === false) return done();
    const containers = containersOf(pod);
    if (notAList(pod.spec.volumes) || containers.some((c) => notAList(c.volumeMounts))) return done();
    const alreadyMounted = containers.some((c) => (c.volumeMounts ?? []).some((m) => m?.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH));
    if (alreadyMounted) return done();
    const volumeName = `kube-api-access-${ctx.randomSuffix(5)}`;
    pod.spec.volumes = [...(Array.isArray(pod.spec.volumes) ? pod.spec.volumes : []), tokenVolume(volumeName)];
    for (const c of containers) {
      c.volumeMounts = [...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []), { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH }];
    }
    done();
  },
  validate(a, ctx, done) {
    const pod = podBeingCreated(a);
    if (!pod || isMirror(pod) || !a.namespace) return done();
    const name = pod.spec.serviceAccountName ?? DEFAULT_SERVICE_ACCOUNT_NAME;
    const refuse = (): void =>
      done(admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`));
    const cached = ctx.cached('', 'serviceaccounts', a.namespace, name) as ServiceAccount | undefined;
    if (cached) return done();
    ctx.liveGet('', 'serviceaccounts', a.namespace, name, (obj, err) => (err ? done(err) : obj ? done() : refuse()));
  },
};
