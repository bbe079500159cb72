import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../api/index.ts';
import { missingServiceAccounts } from './controller.ts';

const ns = (extra: Partial<Namespace> = {}): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team' },
  ...extra,
});

// mirrors the cases of serviceaccounts_controller_test.go TestServiceAccountCreation
describe('ServiceAccount controller: which accounts a namespace needs', () => {
  it.each<[string, Namespace | undefined, string[], string[]]>([
    ['new active namespace', ns({ status: { phase: 'Active' } }), [], ['default']],
    ['namespace without a phase yet', ns(), [], ['default']],
    ['default already there', ns({ status: { phase: 'Active' } }), ['default'], []],
    ['only another account there', ns({ status: { phase: 'Active' } }), ['builder'], ['default']],
    ['terminating namespace', ns({ status: { phase: 'Terminating' } }), [], []],
    [
      'namespace being deleted',
      ns({ metadata: { name: 'team', deletionTimestamp: '2026-01-01T00:00:00Z' } }),
      [],
      [],
    ],
    ['namespace gone', undefined, [], []],
  ])('%s', (_name, namespace, existing, missing) => {
    expect(missingServiceAccounts(namespace, new Set(existing))).toEqual(missing);
  });
});
