// Authentication: turns credentials into a user.
// mirrors the union of authenticators kube-apiserver builds in pkg/kubeapiserver/authenticator/config.go:
// x509 client certificates (CN is the user, each O a group), static bearer tokens, service account
// tokens, and the anonymous authenticator last. Every authenticated user also gets
// "system:authenticated" (the group adder in authenticatorfactory). Certificates and tokens are
// simulated: a certificate is trusted as presented, a token is looked up in a table.
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
}

/** The simulated token a service account's pod would mount. */
export function serviceAccountToken(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_TOKEN_PREFIX}${namespace}:${name}`;
}

export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions = {}) {}

  authenticate(credentials: Credentials | undefined): AuthnResult {
    const cert = credentials?.clientCert;
    if (cert && typeof cert.commonName === 'string' && cert.commonName !== '') {
      const groups = Array.isArray(cert.organizations) ? cert.organizations.filter((o) => typeof o === 'string') : [];
      return { ok: true, user: withAuthenticated({ name: cert.commonName, groups }), method: 'x509' };
    }
    const token = credentials?.token;
    if (typeof token === 'string' && token !== '') return this.authenticateToken(token);
    if (this.options.anonymous === false) return { ok: false };
    return { ok: true, user: { name: ANONYMOUS, groups: [ALL_UNAUTHENTICATED] }, method: 'anonymous' };
  }

  private authenticateToken(token: string): AuthnResult {
    const entry = this.options.tokens?.[token];
    if (entry) {
      const user: UserInfo = { name: entry.name, groups: [...(entry.groups ?? [])] };
      if (entry.uid !== undefined) user.uid = entry.uid;
      return { ok: true, user: withAuthenticated(user), method: 'token' };
    }
    if (token.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX)) {
      const [namespace, name, ...rest] = token.slice(SERVICE_ACCOUNT_TOKEN_PREFIX.length).split(':');
      if (!namespace || !name || rest.length > 0) return { ok: false };
      const exists = this.options.serviceAccountExists?.(namespace, name) ?? true;
      if (!exists) return { ok: false };
      const user = { name: serviceAccountUsername(namespace, name), groups: serviceAccountGroups(namespace) };
      return { ok: true, user: withAuthenticated(user), method: 'serviceaccount' };
    }
    return { ok: false };
  }
}

function withAuthenticated(user: UserInfo): UserInfo {
  if (!user.groups.includes(ALL_AUTHENTICATED)) user.groups.push(ALL_AUTHENTICATED);
  return user;
}
