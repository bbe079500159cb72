// The instance type a machine's shape maps to, in the style of GCE's machine families: memory per
// vCPU of 1 GiB is "highcpu", 4 GiB "standard", 8 GiB "highmem"; any other shape is a custom type
// named custom-<vCPUs>-<MiB> as GCE names them (so the default 4 CPU / 8 GiB worker is
// sim-custom-4-8192).
import { parseQuantity } from '../api/index.ts';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const FAMILIES: readonly [gibPerCpu: number, family: string][] = [[1, 'highcpu'], [4, 'standard'], [8, 'highmem']];

export function instanceTypeFor(cpu: string, memory: string): string {
  const c = parseQuantity(cpu);
  const m = parseQuantity(memory);
  if (!c.ok || !m.ok) return 'sim-custom';
  const milliCpu = c.quantity.milliValue();
  const bytes = m.quantity.value();
  const cpus = Math.ceil(milliCpu / 1000);
  for (const [gibPerCpu, family] of FAMILIES) {
    if (milliCpu % 1000 === 0 && bytes === cpus * gibPerCpu * GIB) return `sim-${family}-${cpus}`;
  }
  return `sim-custom-${cpus}-${Math.ceil(bytes / MIB)}`;
}
