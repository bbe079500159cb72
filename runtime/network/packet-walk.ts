// One packet through one node's KUBE-* rules, as netfilter walks them: the nat table's
// KUBE-SERVICES first (PREROUTING or OUTPUT), following jumps into chains and falling through
// back to the caller when a chain ends without a verdict; then, if nothing DNATed the packet,
// the filter table's KUBE-SERVICES and KUBE-EXTERNAL-SERVICES (where kube-proxy REJECTs or DROPs
// traffic for services without endpoints). KUBE-MARK-MASQ only marks the packet for SNAT and
// returns. A rule with `-m statistic --mode random` draws one number from the rng when the rest
// of the rule matches, as the kernel evaluates matches in order.
import { renderRule, type IptablesRule } from './iptables.ts';

export interface Packet {
  sourceIP: string;
  destIP: string;
  dport: number;
  protocol: string;
  /** The source / destination address belongs to the node walking the packet (`-m addrtype ... LOCAL`). */
  srcLocal: boolean;
  dstLocal: boolean;
}

export type Verdict = { kind: 'dnat'; to: string } | { kind: 'reject' } | { kind: 'drop' } | { kind: 'accept' };

export interface Trail {
  /** Chains entered, in order (KUBE-SERVICES first). */
  chains: string[];
  /** Every rule that matched, as iptables-save prints it. */
  rules: string[];
  /** Some rule jumped to KUBE-MARK-MASQ: the source is rewritten to the node's address. */
  masquerade: boolean;
}

/** Bounds the walk: kube-proxy's chains nest at most four deep (SERVICES, EXT, SVC/SVL, SEP). */
const MAX_DEPTH = 8;

export function walkPacket(rules: readonly IptablesRule[], packet: Packet, rng: { nextFloat(): number }): { verdict: Verdict; trail: Trail } {
  const trail: Trail = { chains: ['KUBE-SERVICES'], rules: [], masquerade: false };
  const nat = rules.filter((r) => r.table === undefined);
  const natVerdict = runChain(nat, 'KUBE-SERVICES', packet, rng, trail, 0);
  if (natVerdict) return { verdict: natVerdict, trail };
  const filter = rules.filter((r) => r.table === 'filter');
  for (const chain of ['KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES']) {
    const before = trail.rules.length;
    const verdict = runChain(filter, chain, packet, rng, trail, 0);
    if (trail.rules.length > before && trail.chains.at(-1) !== chain) trail.chains.push(chain);
    if (verdict) return { verdict, trail };
  }
  return { verdict: { kind: 'accept' }, trail };
}

function runChain(rules: readonly IptablesRule[], chain: string, p: Packet, rng: { nextFloat(): number }, trail: Trail, depth: number): Verdict | undefined {
  if (depth > MAX_DEPTH) throw new Error(`invariant violated: kube-proxy chains nest at most ${MAX_DEPTH} deep (${chain})`);
  for (const r of rules) {
    if (r.chain !== chain || !matches(r, p)) continue;
    if (r.probability !== undefined && !(rng.nextFloat() < r.probability)) continue;
    trail.rules.push(renderRule(r));
    switch (r.jump) {
      case 'KUBE-MARK-MASQ':
        trail.masquerade = true;
        continue;
      case 'DNAT':
        if (!r.toDestination) throw new Error(`invariant violated: the DNAT rule in ${chain} has a --to-destination`);
        return { kind: 'dnat', to: r.toDestination };
      case 'REJECT':
        return { kind: 'reject' };
      case 'DROP':
      case 'KUBE-MARK-DROP':
        return { kind: 'drop' };
      default: {
        trail.chains.push(r.jump);
        const verdict = runChain(rules, r.jump, p, rng, trail, depth + 1);
        if (verdict) return verdict;
      }
    }
  }
  return undefined;
}

function matches(r: IptablesRule, p: Packet): boolean {
  if (r.protocol && r.protocol !== p.protocol) return false;
  if (r.dport !== undefined && r.dport !== p.dport) return false;
  if (r.destination && !inCidr(p.destIP, r.destination)) return false;
  if (r.source && !inCidr(p.sourceIP, r.source)) return false;
  if (r.srcType === 'LOCAL' && !p.srcLocal) return false;
  if (r.dstType === 'LOCAL' && !p.dstLocal) return false;
  return true;
}

/** Whether an IPv4 address is inside "a.b.c.d/len" (a bare address is a /32). */
export function inCidr(ip: string, cidr: string): boolean {
  const [base = '', lenText = '32'] = cidr.split('/');
  const len = Number(lenText);
  const a = ipToNumber(ip), b = ipToNumber(base);
  if (a === undefined || b === undefined) return false;
  if (len === 0) return true;
  const mask = (~0 << (32 - len)) >>> 0;
  return ((a & mask) >>> 0) === ((b & mask) >>> 0);
}

function ipToNumber(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}
