import { describe, expect, it } from 'vitest';
import { mintServiceAccountToken, SERVICE_ACCOUNT_ISSUER, verifyServiceAccountToken, type ServiceAccountClaims } from './service-account-jwt.ts';

const claims: ServiceAccountClaims = {
  aud: [SERVICE_ACCOUNT_ISSUER], exp: 2000, iat: 1000, iss: SERVICE_ACCOUNT_ISSUER, jti: 'j', nbf: 1000,
  'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u' } }, sub: 'system:serviceaccount:ns:sa',
};

describe('service account JWTs', () => {
  const token = mintServiceAccountToken('key-a', claims);
  it('verify with the key that signed them, inside their validity window', () => {
    expect(verifyServiceAccountToken('key-a', token, 1500)).toEqual(claims);
    expect(verifyServiceAccountToken('key-a', token, 999)).toBeUndefined(); // before nbf
    expect(verifyServiceAccountToken('key-a', token, 2000)).toBeUndefined(); // expired
    expect(verifyServiceAccountToken('key-b', token, 1500)).toBeUndefined(); // another cluster's key
  });

  it('refuse a changed claim, another audience, another issuer', () => {
    const [h, , sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
    expect(verifyServiceAccountToken('key-a', `${h}.${forged}.${sig}`, 1500)).toBeUndefined();
    expect(verifyServiceAccountToken('key-a', token, 1500, 'vault')).toBeUndefined();
    expect(verifyServiceAccountToken('key-a', mintServiceAccountToken('key-a', { ...claims, iss: 'https://elsewhere' }), 1500)).toBeUndefined();
    expect(verifyServiceAccountToken('key-a', 'not-a-jwt', 1500)).toBeUndefined();
  });
});
