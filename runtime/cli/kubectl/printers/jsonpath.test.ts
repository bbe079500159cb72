// Cases ported from staging/src/k8s.io/client-go/util/jsonpath/jsonpath_test.go (TestTypesInput,
// TestStructInput with the struct as JSON, TestJSONInput, TestKubernetes, TestEmptyRange,
// failure cases). Struct inputs become JSON objects; objects print with sorted keys, as kubectl
// always hands jsonpath unstructured maps (upstream prints Go structs in field order).
import { describe, expect, it } from 'vitest';
import { executeJSONPath, parseJSONPath, relaxedJSONPathExpression } from './jsonpath.ts';

const run = (template: string, data: unknown, allowMissingKeys = false): string =>
  executeJSONPath(parseJSONPath(template), data, { allowMissingKeys });

const types = {
  bools: [true, false, true, false],
  integers: [1, 2, 3, 4],
  floats: [1.0, 2.2, 3.3, 4.0],
  strings: ['one', 'two', 'three', 'four'],
  interfaces: [true, 'one', 1, 1.1],
  maps: [
    { name: 'one', value: 1 },
    { name: 'two', value: 2.02 },
    { name: 'three', value: 3.03 },
    { name: 'four', value: 4.04 },
  ],
};

const store = {
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Name: 'jsonpath',
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

const nodes = JSON.parse(`{
  "kind": "List",
  "items":[
    {"kind":"None","metadata":{"name":"127.0.0.1","labels":{"kubernetes.io/hostname":"127.0.0.1"}},
     "status":{"capacity":{"cpu":"4"},"ready": true,"addresses":[{"type": "LegacyHostIP", "address":"127.0.0.1"}]}},
    {"kind":"None","metadata":{"name":"127.0.0.2","labels":{"kubernetes.io/hostname":"127.0.0.2"}},
     "status":{"capacity":{"cpu":"8"},"ready": false,"addresses":[{"type": "LegacyHostIP", "address":"127.0.0.2"},{"type": "another", "address":"127.0.0.3"}]}}
  ],
  "users":[{"name": "myself","user": {}},{"name": "e2e","user": {"username": "admin", "password": "secret"}}]
}`);

const points = [
  { id: 'i1', x: 4, y: -5 },
  { id: 'i2', x: -2, y: -5, z: 1 },
  { id: 'i3', x: 8, y: 3 },
  { id: 'i4', x: -6, y: -1 },
  { id: 'i5', x: 0, y: 2, z: 1 },
  { id: 'i6', x: 1, y: 4 },
];

describe('TestTypesInput', () => {
  it.each([
    ['{ .bools }', '[true,false,true,false]'],
    ['{ .bools[0] }', 'true'],
    ['{ .bools[-1] }', 'false'],
    ['{ .bools[0:2] }', 'true false'],
    ['{ .bools[:2] }', 'true false'],
    ['{ .bools[:4:2] }', 'true true'],
    ['{ .integers }', '[1,2,3,4]'],
    ['{ .integers[-2] }', '3'],
    ['{ .integers[:4:2] }', '1 3'],
    ['{ .floats }', '[1,2.2,3.3,4]'],
    ['{ .floats[-2] }', '3.3'],
    ['{ .floats[0:2] }', '1 2.2'],
    ['{ .strings }', '["one","two","three","four"]'],
    ['{ .strings[-2] }', 'three'],
    ['{ .strings[:4:2] }', 'one three'],
    ['{ .interfaces }', '[true,"one",1,1.1]'],
    ['{ .interfaces[:4:2] }', 'true 1'],
    ['{ .maps[0] }', '{"name":"one","value":1}'],
    ['{ .maps[-2] }', '{"name":"three","value":3.03}'],
    ['{ .maps[::2] }', '{"name":"one","value":1} {"name":"three","value":3.03}'],
    ['{ .maps[1::2] }', '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
  ])('%s', (template, want) => expect(run(template, types)).toBe(want));
});

describe('TestStructInput', () => {
  it.each<[string, string, unknown, string]>([
    ['plain', 'hello jsonpath', null, 'hello jsonpath'],
    ['recursive', '{..}', [1, 2, 3], '[1,2,3]'],
    ['filter', '{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['quote', '{"{"}', null, '{'],
    ['union', '{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['array', '{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
    ['variable', 'hello {.Name}', store, 'hello jsonpath'],
    ['dict/', '{$.Labels.web/html}', store, '15'],
    ['dict/ 2', '{$.Employees.jason}', store, 'manager'],
    ['dict/ 3', '{$.Employees.dan}', store, 'clerk'],
    ['dict-', '{.Labels.k8s-app}', store, '20'],
    ['nest', '{.Bicycle[*].Color}', store, 'red green'],
    ['allarray', '{.Book[*].Author}', store, 'Nigel Rees Evelyn Waugh Herman Melville'],
    [
      'allfields',
      '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}',
      store,
      '{red 19.95 true} {green 20.01 false} ',
    ],
    ['recurfields', '{..Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['recurdotfields', '{...Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    [
      'allstructsSlice',
      '{.Bicycle}',
      store,
      '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]',
    ],
    [
      'allstructs',
      '{range .Bicycle[*]}{ @ }{ " " }{end}',
      store,
      '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} ',
    ],
    [
      'lastarray',
      '{.Book[-1:]}',
      store,
      '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    ],
    [
      'recurarray',
      '{..Book[2]}',
      store,
      '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    ],
    ['bool', '{.Bicycle[?(@.IsNew==true)]}', store, '{"Color":"red","IsNew":true,"Price":19.95}'],
  ])('%s', (_name, template, data, want) => expect(run(template, data)).toBe(want));

  it('superrecurfields is an error', () => {
    expect(() =>
      run('{............................................................Price}', store),
    ).toThrow();
  });

  it.each([
    ['{.hello}', ''],
    ['before-{.hello}after', 'before-after'],
  ])('missing keys allowed: %s', (template, want) => expect(run(template, store, true)).toBe(want));

  it.each([
    ['invalid identifier', '{hello}', 'unrecognized identifier hello'],
    ['nonexistent field', '{.hello}', 'hello is not found'],
    ['a name Object.prototype has', '{.constructor}', 'constructor is not found'],
    ['another', '{.Book[0].toString}', 'toString is not found'],
    ['invalid array', '{.Labels[0]}', 'map[string]interface {} is not array or slice'],
    ['invalid filter operator', '{.Book[?(@.Price<>10)]}', 'unrecognized filter operator <>'],
    ['redundant end', '{range .Labels.*}{@}{end}{end}', 'not in range, nothing to end'],
  ])('fails: %s', (_name, template, message) =>
    expect(() => run(template, store)).toThrow(message),
  );
});

describe('TestJSONInput', () => {
  it('exists filter', () => expect(run('{[?(@.z)].id}', points)).toBe('i2 i5'));
  it('bracket key', () => expect(run("{[0]['id']}", points)).toBe('i1'));
});

describe('TestKubernetes', () => {
  it.each([
    ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', '127.0.0.1, 127.0.0.2, List'],
    [
      'range item with quote',
      '{range .items[*]}{.metadata.name}{"\\t"}{end}',
      '127.0.0.1\t127.0.0.2\t',
    ],
    ['range addresss', '{.items[*].status.addresses[*].address}', '127.0.0.1 127.0.0.2 127.0.0.3'],
    [
      'double range',
      '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}',
      '127.0.0.1, 127.0.0.2, 127.0.0.3, ',
    ],
    ['item name', '{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    [
      'union nodes capacity',
      "{.items[*]['metadata.name', 'status.capacity']}",
      '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}',
    ],
    [
      'range nodes capacity',
      '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
      '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] ',
    ],
    ['user password', '{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', '127.0.0.1'],
    [
      'hostname filter',
      '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}',
      'None',
    ],
    ['bool item', '{.items[?(@..ready==true)].metadata.name}', '127.0.0.1'],
  ])('%s', (_name, template, want) => expect(run(template, nodes)).toBe(want));

  it('recursive name (order-insensitive upstream)', () => {
    expect(run('{..name}', nodes).split(' ').sort()).toEqual([
      '127.0.0.1',
      '127.0.0.2',
      'e2e',
      'myself',
    ]);
  });
});

describe('TestEmptyRange', () => {
  it.each([
    ['{range .items[*]}{.metadata.name}{end}', ''],
    [
      '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
      '',
    ],
  ])('%s', (template, want) => expect(run(template, { items: [] }, true)).toBe(want));
});

describe('kubectl usage', () => {
  const pod = {
    metadata: { name: 'web' },
    status: {
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False' },
      ],
    },
  };
  it('selects a condition with a filter', () => {
    expect(run('{.status.conditions[?(@.type=="Ready")].status}', pod)).toBe('False');
  });
  it('prints newlines from "\\n" literals', () => {
    expect(run('{range .items[*]}{.metadata.name}{"\\n"}{end}', { items: [pod, pod] })).toBe(
      'web\nweb\n',
    );
  });
  it('index out of range is an error', () => {
    expect(() => run('{.items[0]}', { items: [] }, true)).toThrow(
      'array index out of bounds: index 0, length 0',
    );
  });
});

describe('relaxedJSONPathExpression', () => {
  it.each([
    ['metadata.name', '{.metadata.name}'],
    ['.metadata.name', '{.metadata.name}'],
    ['{metadata.name}', '{.metadata.name}'],
    ['{.metadata.name}', '{.metadata.name}'],
  ])('%s', (input, want) => expect(relaxedJSONPathExpression(input)).toBe(want));
  it('rejects nested braces', () =>
    expect(() => relaxedJSONPathExpression('{.a}{.b}')).toThrow('unexpected path string'));
});
