// Reading -f manifests: what sigs.k8s.io/yaml (go-yaml v2 underneath) and kubectl's builder make of
// hostile YAML, as error values with kubectl's texts, never an exception.
import { describe, expect, it } from 'vitest';
import { allowedAliasRatio, parseManifests } from './manifests.ts';

const CONVERTING = 'error: error parsing STDIN: error converting YAML to JSON: ';

/** The billion laughs: level n is a list of nine aliases of level n-1. */
const billionLaughs = [
  'apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'data:',
  '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((l, i) => `  ${l}: &${l} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n');

describe('parseManifests refuses what go-yaml refuses', () => {
  it.each([
    ['an alias bomb (billion laughs)', billionLaughs, `${CONVERTING}yaml: document contains excessive aliasing`],
    ['an anchor whose value holds its own alias', 'a: &a [*a]\n', `${CONVERTING}yaml: anchor 'a' value contains itself`],
    ['the same, through a mapping', 'a: &a {b: {c: *a}}\n', `${CONVERTING}yaml: anchor 'a' value contains itself`],
    ['an alias of an anchor not defined (yet)', 'a: *nope\nb: &nope 1\n', `${CONVERTING}yaml: unknown anchor 'nope' referenced`],
    ['an alias alone', '*a\n', `${CONVERTING}yaml: unknown anchor 'a' referenced`],
    ['!!binary that is not base64', 'apiVersion: v1\nkind: ConfigMap\ndata: {a: !!binary "not base64!"}\n', `${CONVERTING}yaml: !!binary value contains invalid base64 data`],
    ['a sequence as a map key', '? [a, b]\n: c\n', `${CONVERTING}yaml: invalid map key: []interface {}{"a", "b"}`],
    ['a mapping as a map key', '? {b: 1, a: x}\n: c\n', `${CONVERTING}yaml: invalid map key: map[interface {}]interface {}{"a":"x", "b":1}`],
    ['an infinite number', 'apiVersion: v1\nkind: Pod\nspec: {x: .inf}\n', `${CONVERTING}json: unsupported value: +Inf`],
    ['a number too large for a float64', 'apiVersion: v1\nkind: Pod\nspec: {x: -1e400}\n', `${CONVERTING}json: unsupported value: -Inf`],
    ['not a number', 'apiVersion: v1\nkind: Pod\nspec: {x: .nan}\n', `${CONVERTING}json: unsupported value: NaN`],
  ])('%s', (_, text, error) => {
    expect(parseManifests(text, 'STDIN')).toEqual({ ok: false, error });
  });

  it('anchors belong to their document: an alias in the next one is unknown', () => {
    expect(parseManifests('apiVersion: v1\nkind: ConfigMap\ndata: {a: &x "1"}\n---\nb: *x\n', 'STDIN')).toEqual({ ok: false, error: `${CONVERTING}yaml: unknown anchor 'x' referenced` });
  });

  it('names a file by its path: unquoted after "error parsing", quoted after "unable to decode"', () => {
    expect(parseManifests('a: *x\n', 'web.yaml')).toEqual({ ok: false, error: "error: error parsing web.yaml: error converting YAML to JSON: yaml: unknown anchor 'x' referenced" });
    expect(parseManifests('kind: Pod\n', 'web.yaml')).toEqual({ ok: false, error: 'error: unable to decode "web.yaml": Object \'apiVersion\' is missing in \'{"kind":"Pod"}\'' });
  });
});

describe('parseManifests decodes what go-yaml decodes', () => {
  it('expands each alias into its own copy (changing one object leaves the other alone)', () => {
    const r = parseManifests('apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: &l {x: y}}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b, labels: *l}}\n', 'STDIN');
    if (!r.ok) throw new Error(r.error);
    const [a, b] = r.objects;
    expect(b!.metadata.labels).toEqual({ x: 'y' });
    a!.metadata.labels!.x = 'changed';
    expect(b!.metadata.labels).toEqual({ x: 'y' });
  });

  it('lets through aliases below the ratio: 150 aliases among 2,000 decoded nodes', () => {
    const items = [...Array(150).fill('*v'), ...Array(1850).fill('w')];
    const r = parseManifests(`apiVersion: v1\nkind: List\nx: &v v\nitems: []\nbig: [${items.join(', ')}]\n`, 'STDIN');
    expect(r).toEqual({ ok: true, objects: [] });
  });

  it('decodes !!binary into its bytes as text, invalid UTF-8 as U+FFFD (string(data), then JSON)', () => {
    const r = parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {a: !!binary aGVsbG8=, b: !!binary /w==}\n', 'STDIN');
    expect(r.ok && r.objects[0]!).toMatchObject({ data: { a: 'hello', b: '\ufffd' } });
  });

  it('takes tags go-yaml does not know as the node they are on (!!set, !!omap, !!timestamp)', () => {
    const r = parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t, annotations: {at: !!timestamp 2001-12-14}}\ndata: !!set {a, b}\nx: !!omap [a: 1]\n', 'STDIN');
    expect(r.ok && r.objects[0]!).toMatchObject({ metadata: { annotations: { at: '2001-12-14' } }, data: { a: null, b: null }, x: [{ a: 1 }] });
  });

  it('keeps "__proto__" a key, as JSON does', () => {
    const r = parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\ndata: {__proto__: x}\n', 'STDIN');
    expect(r.ok && Object.keys((r.objects[0] as unknown as { data: object }).data)).toEqual(['__proto__']);
  });
});

describe('parseManifests flattens lists as FlattenListVisitor does', () => {
  const cm = (name: string): string => `{apiVersion: v1, kind: ConfigMap, metadata: {name: ${name}}}`;
  const names = (text: string): string[] => {
    const r = parseManifests(text, 'STDIN');
    if (!r.ok) throw new Error(r.error);
    return r.objects.map((o) => `${o.kind}/${o.metadata.name}`);
  };

  it.each([
    ['a list in a list, breadth first', `apiVersion: v1\nkind: List\nitems: [${cm('a')}, {apiVersion: v1, kind: List, items: [${cm('b')}]}, ${cm('c')}]\n`, ['ConfigMap/a', 'ConfigMap/c', 'ConfigMap/b']],
    ['a typed list gives its items without kind or apiVersion its own', 'apiVersion: v1\nkind: ConfigMapList\nitems: [{metadata: {name: x}}]\n', ['ConfigMap/x']],
    ['an empty list', 'apiVersion: v1\nkind: List\nitems: []\n', []],
  ])('%s', (_, text, want) => expect(names(text)).toEqual(want));

  it.each([
    ['an item that is not an object', 'apiVersion: v1\nkind: List\nitems: [5]\n', 'error: unable to decode "STDIN": json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['items that are not a list', 'apiVersion: v1\nkind: List\nitems: {a: b}\n', 'error: unable to decode "STDIN": json: cannot unmarshal object into Go struct field decodeList.items of type []json.RawMessage'],
    ['an item with no kind', 'apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, metadata: {}}]\n', 'error: unable to decode "STDIN": Object \'Kind\' is missing in \'{"apiVersion":"v1","metadata":{}}\''],
    ['a null item of an untyped list', 'apiVersion: v1\nkind: List\nitems: [null]\n', 'error: unable to decode "STDIN": Object \'Kind\' is missing in \'{"kind":"","apiVersion":"v1"}\''],
  ])('%s', (_, text, error) => expect(parseManifests(text, 'STDIN')).toEqual({ ok: false, error }));
});

describe('allowedAliasRatio (decode.go)', () => {
  it.each([
    [1_000, 0.99],
    [400_000, 0.99],
    [2_200_000, 0.545],
    [4_000_000, 0.1],
    [9_000_000, 0.1],
  ])('%d decodes: %d', (decodes, ratio) => expect(allowedAliasRatio(decodes)).toBeCloseTo(ratio, 10));
});
