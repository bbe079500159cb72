// Turns the names a learner gives to faults.partition() into network endpoints: a machine stands
// for every component process on it (and the endpoints those use, like an API server's etcd
// client), a component for its own endpoints, and an etcd member for itself. Clients outside every
// group (kubectl, the load balancer unless named) still reach everyone, like a laptop outside the cut.
import type { Component } from './control-plane.ts';
import type { ClusterPlan } from './options.ts';

export function expandPartition(groups: string[][], plan: ClusterPlan, components: ReadonlyMap<string, Component>): string[][] {
  return groups.map((group) => {
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
    return [...endpoints];
  });
}
