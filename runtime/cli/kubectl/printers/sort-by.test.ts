// --sort-by's comparison and errors (kubectl/pkg/cmd/get/sorter.go isLess, RuntimeSort, TableSorter).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/index.ts';
import { SortByError, sortObjects } from './sort-by.ts';

const obj = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra }) as KubeObject;
const names = (objects: KubeObject[]): string[] => objects.map((o) => o.metadata.name ?? '');

describe('sortObjects (--sort-by)', () => {
  it('puts objects without the field first, then nulls, then values', () => {
    const list = [obj('b', { v: '2026-01-01T00:00:02Z' }), obj('none'), obj('a', { v: '2026-01-01T00:00:01Z' }), obj('nil', { v: null })];
    expect(names(sortObjects(list, '.v', 'runtime'))).toEqual(['none', 'nil', 'a', 'b']);
  });

  it('compares strings that are both quantities as quantities, other strings in natural order', () => {
    const q = [obj('2Gi', { v: '2Gi' }), obj('500Mi', { v: '500Mi' }), obj('1Gi', { v: '1Gi' }), obj('100m', { v: '100m' })];
    expect(names(sortObjects(q, 'v', 'runtime'))).toEqual(['100m', '500Mi', '1Gi', '2Gi']);
    const s = [obj('x', { v: 'web-10' }), obj('y', { v: 'web-9' }), obj('z', { v: 'api' })];
    expect(names(sortObjects(s, '{.v}', 'runtime'))).toEqual(['z', 'y', 'x']);
  });

  it('compares integers with integers and floats with floats', () => {
    expect(names(sortObjects([obj('a', { v: 10 }), obj('b', { v: 9 }), obj('c', { v: -1 })], '.v', 'runtime'))).toEqual(['c', 'b', 'a']);
    expect(names(sortObjects([obj('a', { v: 1.5 }), obj('b', { v: 0.5 })], '.v', 'runtime'))).toEqual(['b', 'a']);
  });

  it('fails when no object has the field (but not for an empty list)', () => {
    expect(() => sortObjects([obj('a'), obj('b')], '.spec.nodeName', 'table')).toThrow(
      new SortByError('couldn\'t find any field with path "{.spec.nodeName}" in the list of objects'),
    );
    expect(sortObjects([], '.spec.nodeName', 'table')).toEqual([]);
  });

  it('exits through klog on values it cannot compare, naming the sorter it ran in', () => {
    const fail = (list: KubeObject[], kind: 'runtime' | 'table'): SortByError => {
      try {
        sortObjects(list, '.v', kind);
      } catch (e) {
        return e as SortByError;
      }
      throw new Error('expected a SortByError');
    };
    const bools = fail([obj('a', { v: true }), obj('b', { v: false })], 'runtime');
    expect(bools.klog).toEqual({ source: 'sorter.go:332', message: 'Field {.v} in *unstructured.Unstructured is an unsortable type: interface, err: unsortable type: bool' });
    const maps = fail([obj('a', { v: { x: 1 } }), obj('b', { v: { x: 2 } })], 'table');
    expect(maps.klog).toEqual({ source: 'sorter.go:378', message: 'Field {.v} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: map[string]interface {}' });
    expect(fail([obj('a', { v: 1 }), obj('b', { v: 0.5 })], 'runtime').klog?.message).toMatch(/err: unsortable interface: interface$/);
    expect(fail([obj('a', { v: 'x' }), obj('b', { v: 2 })], 'runtime').klog?.message).toMatch(/err: unsortable interface: interface$/);
  });

  it('leaves more than 12 ties as Go sort.Sort does (not stably)', () => {
    const keys = ['1', '1', '1', '1', '1', '1', '0', '1', '1', '1', '1', '1', '1'];
    const list = keys.map((k, i) => obj(`o${i}`, { v: `2026-01-01T00:00:0${k}Z` }));
    expect(names(sortObjects(list, '.v', 'runtime'))).toEqual(['o6', 'o3', 'o2', 'o0', 'o4', 'o5', 'o1', 'o7', 'o8', 'o9', 'o10', 'o11', 'o12']);
  });
});
