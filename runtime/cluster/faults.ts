// Turns the names a learner gives to faults.partition() into network endpoints: a machine stands
// for every component process on it (and the endpoints those use, like an API server's etcd
// client), a component for its own endpoints, and an etcd member for itself.
//
// Each named group is cut off from every cluster endpoint outside it: the components of the
// cluster that no group names form one more, implicit group ("the rest of the cluster"), so
// partition([['etcd-cp-3']]) isolates that member from its peers, its API server and everyone else.
// Clients outside the cluster are in no group and still reach every machine: the reader's kubectl
// and etcdctl (a laptop with a route to every machine), and test harness clients. In an HA cluster
// kubectl reaches the API servers through the load balancer, which is a cluster component and so
// follows the partition like the rest.
import type { Component } from './control-plane.ts';
import type { ClusterPlan } from './options.ts';

export function expandPartition(groups: string[][], plan: ClusterPlan, components: ReadonlyMap<string, Component>): string[][] {
  const named = groups.map((group) => {
    const endpoints = new Set<string>();
    for (const name of group) {
      const machine = plan.machines.find((m) => m.name === name);
      const hosted = machine ? [...components.values()].filter((c) => c.machine === machine.name) : [];
      const component = components.get(name);
      if (!machine && !component) {
        throw new Error(`partition: "${name}" is neither a node nor a component (nodes: ${plan.machines.map((m) => m.name).join(', ')}; components: ${[...components.keys()].join(', ')})`);
      }
      for (const c of component ? [component] : hosted) for (const e of c.endpoints()) endpoints.add(e);
      if (machine) endpoints.add(machine.name);
    }
    return endpoints;
  });
  const grouped = new Set<string>();
  for (const g of named) {
    for (const e of g) {
      if (grouped.has(e)) throw new Error(`partition: "${e}" is named in two groups`);
      grouped.add(e);
    }
  }
  const rest = new Set<string>();
  for (const m of plan.machines) if (!grouped.has(m.name)) rest.add(m.name);
  for (const c of components.values()) for (const e of c.endpoints()) if (!grouped.has(e)) rest.add(e);
  const out = named.map((g) => [...g]);
  if (rest.size > 0) out.push([...rest]);
  return out;
}
