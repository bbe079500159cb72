// Authentication: turns credentials into a user.
// mirrors the union of authenticators kube-apiserver builds in pkg/kubeapiserver/authenticator/config.go:
// x509 client certificates (CN is the user, each O a group), static bearer tokens, service account
// tokens (the bound JWTs TokenRequest mints, and this simulation's "sa-token:" stand-ins for its
// components), and the anonymous authenticator last. Every authenticated user also gets
// "system:authenticated" (the group adder in authenticatorfactory). Certificates and tokens are
// simulated: a certificate is trusted as presented, a token is looked up in a table.
import { looksLikeJwt, verifyServiceAccountToken } from './service-account-jwt.ts';
import type { Credentials } from '../request.ts';
import {
  ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, serviceAccountGroups, serviceAccountUsername, type UserInfo,
} from './user.ts';

/** The prefix of simulated service account tokens: "sa-token:<namespace>:<name>". */
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'sa-token:';

export type AuthnResult = { ok: true; user: UserInfo; method: string } | { ok: false };

export interface AuthenticatorOptions {
  /** Static bearer tokens (--token-auth-file). */
  tokens?: Record<string, { name: string; uid?: string; groups?: string[] }>;
  /** Whether requests without credentials become system:anonymous (--anonymous-auth, default true). */
  anonymous?: boolean;
  /** Looks up a service account (for token validation); true when it exists. */
  serviceAccountExists?: (namespace: string, name: string) => boolean;
  /** --service-account-key-file's key: what verifies TokenRequest's JWTs (none: JWTs are refused). */
  serviceAccountKey?: string;
  /** The simulated wall clock in seconds, for a JWT's exp and nbf. */
  nowSeconds?: () => number;
}

/** The simulated token a service account's pod would mount. */
export function serviceAccountToken(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_TOKEN_PREFIX}${namespace}:${name}`;
}

/** Distinct certificates or service account tokens remembered before starting over. */
const REMEMBERED_MAX = 1024;

export class Authenticator {
  /**
   * What each presented certificate and service account token authenticated as, frozen: every
   * request of a cluster is authenticated, by a handful of identities, and a component sends the
   * same credentials object with each of its requests. The user a request got is the same value
   * either way; a certificate is looked up by identity and its fields compared, a token by text
   * (its service account must still exist: that is checked on every request, as before).
   */
  private readonly certificates = new WeakMap<object, { commonName: string; organizations: readonly unknown[] | undefined; result: AuthnResult }>();
  private readonly serviceAccounts = new Map<string, AuthnResult>();
  private readonly anonymousResult: AuthnResult = Object.freeze({
    ok: true, user: frozenUser({ name: ANONYMOUS, groups: [ALL_UNAUTHENTICATED] }), method: 'anonymous',
  });

  constructor(private readonly options: AuthenticatorOptions = {}) {}

  authenticate(credentials: Credentials | undefined): AuthnResult {
    const cert = credentials?.clientCert;
    if (cert && typeof cert.commonName === 'string' && cert.commonName !== '') return this.authenticateCertificate(cert);
    const token = credentials?.token;
    if (typeof token === 'string' && token !== '') return this.authenticateToken(token);
    if (this.options.anonymous === false) return { ok: false };
    return this.anonymousResult;
  }

  private authenticateCertificate(cert: NonNullable<Credentials['clientCert']>): AuthnResult {
    const orgs = cert.organizations;
    const known = this.certificates.get(cert);
    if (known && known.commonName === cert.commonName && sameElements(known.organizations, orgs)) return known.result;
    const groups = Array.isArray(orgs) ? orgs.filter((o) => typeof o === 'string') : [];
    const result: AuthnResult = Object.freeze({ ok: true, user: frozenUser(withAuthenticated({ name: cert.commonName, groups })), method: 'x509' });
    this.certificates.set(cert, { commonName: cert.commonName, organizations: Array.isArray(orgs) ? [...orgs] : undefined, result });
    return result;
  }

  private authenticateToken(token: string): AuthnResult {
    const entry = this.options.tokens?.[token];
    if (entry) {
      const user: UserInfo = { name: entry.name, groups: [...(entry.groups ?? [])] };
      if (entry.uid !== undefined) user.uid = entry.uid;
      return { ok: true, user: withAuthenticated(user), method: 'token' };
    }
    if (looksLikeJwt(token)) return this.authenticateJwt(token);
    if (token.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX)) {
      const [namespace, name, ...rest] = token.slice(SERVICE_ACCOUNT_TOKEN_PREFIX.length).split(':');
      if (!namespace || !name || rest.length > 0) return { ok: false };
      const exists = this.options.serviceAccountExists?.(namespace, name) ?? true;
      if (!exists) return { ok: false };
      let result = this.serviceAccounts.get(token);
      if (result === undefined) {
        const user = { name: serviceAccountUsername(namespace, name), groups: serviceAccountGroups(namespace) };
        result = Object.freeze({ ok: true, user: frozenUser(withAuthenticated(user)), method: 'serviceaccount' });
        if (this.serviceAccounts.size >= REMEMBERED_MAX) this.serviceAccounts.clear();
        this.serviceAccounts.set(token, result);
      }
      return result;
    }
    return { ok: false };
  }

  /** A bound service account token (service-account-jwt.ts): its account must still exist. */
  private authenticateJwt(token: string): AuthnResult {
    const key = this.options.serviceAccountKey;
    const claims = key === undefined ? undefined : verifyServiceAccountToken(key, token, this.options.nowSeconds?.() ?? 0);
    if (!claims) return { ok: false };
    const { namespace, serviceaccount } = claims['kubernetes.io'];
    if (!(this.options.serviceAccountExists?.(namespace, serviceaccount.name) ?? true)) return { ok: false };
    const user: UserInfo = { name: serviceAccountUsername(namespace, serviceaccount.name), uid: serviceaccount.uid, groups: serviceAccountGroups(namespace) };
    return { ok: true, user: withAuthenticated(user), method: 'serviceaccount' };
  }
}

function withAuthenticated(user: UserInfo): UserInfo {
  if (!user.groups.includes(ALL_AUTHENTICATED)) user.groups.push(ALL_AUTHENTICATED);
  return user;
}

/** A user shared by many requests: frozen, groups too, so no request can change another's. */
function frozenUser(user: UserInfo): UserInfo {
  Object.freeze(user.groups);
  return Object.freeze(user);
}

function sameElements(a: readonly unknown[] | undefined, b: unknown): boolean {
  if (a === undefined || !Array.isArray(b)) return a === undefined && !Array.isArray(b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
