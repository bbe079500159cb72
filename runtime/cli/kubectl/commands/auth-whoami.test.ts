// kubectl auth whoami's table (whoami.go printTableSelfSubjectAccessReview).
import { describe, expect, it } from 'vitest';
import { whoamiTable } from './auth-whoami.ts';

describe('whoamiTable', () => {
  it('prints the rows it has, aligned by the get tabwriter, extras sorted by key', () => {
    expect(whoamiTable({ username: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'], dept: ['x'] } })).toBe(
      'ATTRIBUTE       VALUE\n' +
      'Username        jane\n' +
      'UID             u-1\n' +
      'Groups          [devs system:authenticated]\n' +
      'Extra: dept     [x]\n' +
      'Extra: scopes   [a b]\n',
    );
  });

  it('leaves out what is empty', () => {
    expect(whoamiTable({ username: 'system:anonymous', groups: [] })).toBe('ATTRIBUTE   VALUE\nUsername    system:anonymous\n');
  });
});
