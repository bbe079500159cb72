// Bound service account tokens: the JWTs TokenRequest mints (pkg/serviceaccount/claims.go) and the
// authenticator verifies (pkg/serviceaccount/jwt.go): header {"alg":"RS256","kid"}, the claims
// aud, exp, iat, iss, jti, kubernetes.io (namespace, serviceaccount, the bound pod), nbf, sub. The
// simulation has no RSA: the signature is a keyed hash over "header.payload" with the cluster's
// signing key (kubeadm's sa.key, shared by every API server), so a token verifies on every replica,
// and a changed claim, another cluster's token or an expired one does not. It is a stand-in for a
// signature, not cryptography.
import { decodeBase64, encodeBase64, utf8Bytes, utf8Text } from '../../api/index.ts';
import { fnv1a32, splitmix32 } from '../../kernel/index.ts';

export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  'kubernetes.io': {
    namespace: string;
    node?: { name: string; uid?: string };
    pod?: { name: string; uid: string };
    serviceaccount: { name: string; uid: string };
  };
  nbf: number;
  sub: string;
}

const SIGNATURE_BYTES = 256;

const base64url = (bytes: readonly number[]): string => encodeBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

function fromBase64url(text: string): string | undefined {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const d = decodeBase64(padded);
  return d.ok ? utf8Text(d.bytes) : undefined;
}

/** The keyed stand-in signature of `signingInput`. */
function signature(key: string, signingInput: string): string {
  let state = fnv1a32(`${key}\n${signingInput}`) ^ fnv1a32(`${signingInput}\n${key}`);
  const bytes: number[] = [];
  for (let i = 0; i < SIGNATURE_BYTES; i++) {
    state = splitmix32(state);
    bytes.push(state & 0xff);
  }
  return base64url(bytes);
}

/** The key ID kubeadm's sa.pub would have (a hash of the public key; here of the key's name). */
export const keyId = (key: string): string => base64url(utf8Bytes(`${fnv1a32(key).toString(16).padStart(8, '0')}-sa-key`)).slice(0, 43);

export function mintServiceAccountToken(key: string, claims: ServiceAccountClaims): string {
  const header = base64url(utf8Bytes(JSON.stringify({ alg: 'RS256', kid: keyId(key) })));
  const payload = base64url(utf8Bytes(JSON.stringify(claims)));
  return `${header}.${payload}.${signature(key, `${header}.${payload}`)}`;
}

/** The token's claims when its signature, issuer, audience and validity window hold; else undefined. */
export function verifyServiceAccountToken(key: string, token: string, nowSeconds: number, audience = SERVICE_ACCOUNT_ISSUER): ServiceAccountClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, sig] = parts as [string, string, string];
  if (signature(key, `${header}.${payload}`) !== sig) return undefined;
  let claims: ServiceAccountClaims;
  try {
    claims = JSON.parse(fromBase64url(payload) ?? '') as ServiceAccountClaims;
  } catch {
    return undefined;
  }
  if (claims.iss !== SERVICE_ACCOUNT_ISSUER || !Array.isArray(claims.aud) || !claims.aud.includes(audience)) return undefined;
  if (typeof claims.exp !== 'number' || nowSeconds >= claims.exp || (typeof claims.nbf === 'number' && nowSeconds < claims.nbf)) return undefined;
  if (typeof claims['kubernetes.io']?.namespace !== 'string' || typeof claims['kubernetes.io'].serviceaccount?.name !== 'string') return undefined;
  return claims;
}

/** Whether a bearer token is a JWT (three dot-separated parts), rather than a static or legacy token. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
