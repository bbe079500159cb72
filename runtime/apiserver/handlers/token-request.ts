// POST serviceaccounts/<name>/token: TokenRequest (pkg/registry/core/serviceaccount/storage/token.go).
// The account must exist; expirationSeconds defaults to 3600 and may not be under 600; the audiences
// default to the API server's (its issuer); a token bound to a pod names the pod (and, as in 1.30+,
// its node). The answer is the TokenRequest with the token and its expirationTimestamp.
import { invalid, newBadRequest, newInvalid, newNotFound, Path, rfc3339, SIMULATION_EPOCH_MS, type KubeObject } from '../../api/index.ts';
import { mintServiceAccountToken, SERVICE_ACCOUNT_ISSUER, type ServiceAccountClaims } from '../authn/service-account-jwt.ts';
import { keyOf, type Scope } from './scope.ts';

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;

interface TokenRequestSpec {
  audiences?: string[];
  expirationSeconds?: number;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string };
}

export function handleTokenRequest(s: Scope, signingKey: string | undefined, newJti: () => string): void {
  const namespace = s.req.namespace ?? 'default';
  const name = s.req.name ?? '';
  if (signingKey === undefined) return s.fail(newBadRequest('this API server has no service account signing key'));
  const body = (s.req.body ?? {}) as { spec?: TokenRequestSpec };
  const spec: TokenRequestSpec = { ...body.spec };
  const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
    return s.fail(newInvalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, [invalid(Path.of('spec', 'expirationSeconds'), expirationSeconds, 'may not specify a duration less than 10 minutes')]));
  }
  const sa = s.cache?.get(keyOf(s, namespace, name));
  if (!sa) return s.fail(newNotFound({ group: '', resource: 'serviceaccounts' }, name));
  const iat = Math.floor((SIMULATION_EPOCH_MS + s.nowMs()) / 1000);
  const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : [SERVICE_ACCOUNT_ISSUER];
  const bound = spec.boundObjectRef;
  const claims: ServiceAccountClaims = {
    aud: audiences, exp: iat + expirationSeconds, iat, iss: SERVICE_ACCOUNT_ISSUER, jti: newJti(),
    'kubernetes.io': {
      namespace,
      ...(bound?.kind === 'Pod' && bound.name ? { pod: { name: bound.name, uid: bound.uid ?? '' } } : {}),
      serviceaccount: { name, uid: sa.metadata.uid ?? '' },
    },
    nbf: iat, sub: `system:serviceaccount:${namespace}:${name}`,
  };
  const token = mintServiceAccountToken(signingKey, claims);
  s.respond(201, {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null as unknown as string },
    spec: { audiences, expirationSeconds, boundObjectRef: bound ?? null },
    status: { token, expirationTimestamp: rfc3339(s.nowMs() + expirationSeconds * 1000) },
  } as unknown as KubeObject);
}
