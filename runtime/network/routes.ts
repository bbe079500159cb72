// Each node's routing table for the pod network: the routes `ip route` lists on a kind node besides
// its own link. kindnetd adds, for every other node, a route to that node's podCIDR through the
// node's InternalIP (kind's images/kindnetd/cmd/kindnetd/routes.go syncRoute: a route to the same
// destination through another gateway is replaced, routes of deleted nodes are left alone). The
// table is kernel state: it outlives kindnetd (a dead kindnet leaves its routes behind, which go
// stale) and is lost when the machine reboots.
import { inCidr } from './packet-walk.ts';

export interface PodRoute {
  /** The destination: another node's podCIDR. */
  dst: string;
  /** The gateway: that node's InternalIP. */
  via: string;
}

/** What syncRoute did to the table. */
export type RouteChange = 'added' | 'replaced' | 'unchanged';

/** The interface every machine reaches the others through (kind's node containers have one). */
export const NODE_INTERFACE = 'eth0';

/** `ip route` prints a route this way. */
export function routeLine(r: PodRoute): string {
  return `${r.dst} via ${r.via} dev ${NODE_INTERFACE}`;
}

export class RouteTables {
  /** node -> destination -> gateway. */
  private readonly tables = new Map<string, Map<string, string>>();

  /** kindnetd's syncRoute: the route to dst goes through via (a route through another gateway is replaced). */
  ensure(nodeName: string, route: PodRoute): RouteChange {
    let table = this.tables.get(nodeName);
    if (!table) this.tables.set(nodeName, (table = new Map()));
    const current = table.get(route.dst);
    if (current === route.via) return 'unchanged';
    table.set(route.dst, route.via);
    return current === undefined ? 'added' : 'replaced';
  }

  /** The node's pod-network routes, by destination. */
  routesOf(nodeName: string): PodRoute[] {
    const table = this.tables.get(nodeName);
    if (!table) return [];
    return [...table].map(([dst, via]) => ({ dst, via })).sort((a, b) => compareCidrs(a.dst, b.dst));
  }

  /** The route the kernel picks for ip on the node: the longest prefix that contains it. */
  lookup(nodeName: string, ip: string): PodRoute | undefined {
    let best: PodRoute | undefined;
    for (const r of this.routesOf(nodeName)) {
      if (inCidr(ip, r.dst) && (!best || prefixLength(r.dst) > prefixLength(best.dst))) best = r;
    }
    return best;
  }

  /** The machine rebooted: its routing table starts empty. */
  flush(nodeName: string): void {
    this.tables.delete(nodeName);
  }
}

function prefixLength(cidr: string): number {
  return Number(cidr.split('/')[1] ?? '32');
}

/** Orders CIDRs by address, as `ip route` lists them. */
function compareCidrs(a: string, b: string): number {
  const key = (cidr: string): number[] => (cidr.split('/')[0] ?? '').split('.').map(Number);
  const ka = key(a), kb = key(b);
  for (let i = 0; i < 4; i++) {
    const d = (ka[i] ?? 0) - (kb[i] ?? 0);
    if (d !== 0) return d;
  }
  return prefixLength(a) - prefixLength(b);
}
