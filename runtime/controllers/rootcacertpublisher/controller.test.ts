import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '../../api/index.ts';
import { DESCRIPTION, DESCRIPTION_ANNOTATION, publisherAction } from './controller.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const cm = (data: Record<string, string>, annotations?: Record<string, string>): ConfigMap => ({ metadata: { name: 'kube-root-ca.crt', namespace: 'ns', ...(annotations ? { annotations } : {}) }, data });

// the cases of publisher_test.go TestConfigMapCreation, as the action the sync takes
describe('root CA publisher: what a namespace needs', () => {
  it.each<[string, ConfigMap | undefined, string]>([
    ['no ConfigMap yet', undefined, 'create'],
    ['up to date', cm({ 'ca.crt': CA }, { [DESCRIPTION_ANNOTATION]: DESCRIPTION }), 'none'],
    ['changed data', cm({ 'ca.crt': 'other' }, { [DESCRIPTION_ANNOTATION]: DESCRIPTION }), 'update'],
    ['an extra key', cm({ 'ca.crt': CA, extra: 'x' }, { [DESCRIPTION_ANNOTATION]: DESCRIPTION }), 'update'],
    ['description annotation removed', cm({ 'ca.crt': CA }), 'update'],
  ])('%s: %s', (_name, existing, action) => {
    expect(publisherAction(existing, CA)).toBe(action);
  });
});
