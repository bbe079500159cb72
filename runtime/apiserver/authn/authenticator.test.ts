import { describe, expect, it } from 'vitest';
import { Authenticator, serviceAccountToken } from './authenticator.ts';

describe('Authenticator remembers what credentials authenticated as', () => {
  it('the same certificate gets the same frozen user; a changed one is authenticated again', () => {
    const auth = new Authenticator();
    const cert = { commonName: 'system:node:n1', organizations: ['system:nodes'] };
    const first = auth.authenticate({ clientCert: cert });
    expect(first).toEqual({ ok: true, user: { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] }, method: 'x509' });
    expect(auth.authenticate({ clientCert: cert })).toBe(first);
    expect(first.ok && Object.isFrozen(first.user) && Object.isFrozen(first.user.groups)).toBe(true);
    cert.organizations.push('team-a');
    expect(auth.authenticate({ clientCert: cert })).toEqual({ ok: true, user: { name: 'system:node:n1', groups: ['system:nodes', 'team-a', 'system:authenticated'] }, method: 'x509' });
    cert.commonName = 'system:node:n2';
    const renamed = auth.authenticate({ clientCert: cert });
    expect(renamed.ok && renamed.user.name).toBe('system:node:n2');
    // an equal certificate in another object is authenticated on its own, to the same user
    expect(auth.authenticate({ clientCert: { commonName: 'system:node:n2', organizations: ['system:nodes', 'team-a'] } })).toEqual(renamed);
  });

  it('a service account token is refused once its service account is gone, even after it was remembered', () => {
    let exists = true;
    const auth = new Authenticator({ serviceAccountExists: () => exists });
    const token = serviceAccountToken('kube-system', 'kindnet');
    const first = auth.authenticate({ token });
    expect(first).toEqual({
      ok: true, method: 'serviceaccount',
      user: { name: 'system:serviceaccount:kube-system:kindnet', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
    });
    expect(auth.authenticate({ token })).toBe(first);
    exists = false;
    expect(auth.authenticate({ token })).toEqual({ ok: false });
  });

  it('anonymous requests share one frozen system:anonymous; with anonymous off they are refused', () => {
    const auth = new Authenticator();
    const a = auth.authenticate(undefined);
    expect(a).toEqual({ ok: true, user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, method: 'anonymous' });
    expect(auth.authenticate({})).toBe(a);
    expect(new Authenticator({ anonymous: false }).authenticate(undefined)).toEqual({ ok: false });
  });
});
