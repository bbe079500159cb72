// etcd keys of objects: /registry/<resource>/<namespace>/<name> for namespaced resources and
// /registry/<resource>/<name> for cluster-scoped ones.
// mirrors staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (NamespaceKeyFunc,
// NoNamespaceKeyFunc, KeyRootFunc).
import { prefixEnd } from '../../etcd/index.ts';

/** The key of one object. */
export function objectKey(prefix: string, namespace: string | undefined, name: string): string {
  return namespace ? `${prefix}/${namespace}/${name}` : `${prefix}/${name}`;
}

/** The [key, rangeEnd) of a list: every object of the resource, or of one namespace. */
export function listRange(prefix: string, namespace: string | undefined): { key: string; rangeEnd: string } {
  const key = namespace ? `${prefix}/${namespace}/` : `${prefix}/`;
  return { key, rangeEnd: prefixEnd(key) };
}
