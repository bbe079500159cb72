// Which pods a scoped ResourceQuota counts (pkg/quota/v1/evaluator/core/pods.go podMatchesScopeFunc).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../types/index.ts';
import { quotaCounts, type QuotaScopes } from './evaluator.ts';

const pod = (priorityClassName?: string, extra: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(priorityClassName === undefined ? {} : { priorityClassName }), ...extra },
});
const selector = (operator: string, values?: string[]): QuotaScopes => ({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }] } });

describe('quotaCounts', () => {
  it.each<[string, QuotaScopes | undefined, Pod, boolean]>([
    ['an unscoped quota counts every pod', undefined, pod(), true],
    ['In matches the named class', selector('In', ['high']), pod('high'), true],
    ['In skips other classes', selector('In', ['high']), pod('low'), false],
    ['In skips pods without a class', selector('In', ['high']), pod(), false],
    ['NotIn skips the named class', selector('NotIn', ['high']), pod('high'), false],
    ['NotIn counts pods without a class (their class is "")', selector('NotIn', ['high']), pod(), true],
    ['Exists counts pods with any class', selector('Exists'), pod('low'), true],
    ['Exists skips pods without a class', selector('Exists'), pod(), false],
    ['DoesNotExist never matches (the label key is always present)', selector('DoesNotExist'), pod(), false],
    ['BestEffort counts pods without requests or limits', { scopes: ['BestEffort'] }, pod(), true],
    ['NotBestEffort skips them', { scopes: ['NotBestEffort'] }, pod(), false],
    ['Terminating counts pods with activeDeadlineSeconds', { scopes: ['Terminating'] }, pod(undefined, { activeDeadlineSeconds: 60 }), true],
    ['scopes and selector must all match', { scopes: ['NotTerminating'], ...selector('In', ['high']) }, pod('high', { activeDeadlineSeconds: 60 }), false],
  ])('%s', (_name, scopes, p, want) => {
    expect(quotaCounts(scopes, '', 'pods', p)).toBe(want);
  });

  it('a scoped quota never counts objects other than pods; an unscoped one does', () => {
    expect(quotaCounts(selector('Exists'), '', 'configmaps', {})).toBe(false);
    expect(quotaCounts(undefined, '', 'configmaps', {})).toBe(true);
  });
});
