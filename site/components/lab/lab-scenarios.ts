// The labs' "Run in cluster" scenarios, found by file name: every labs/<slug>/scenario.ts whose
// default export is a LabScenario (labs/lab-scenario.ts). Loaded lazily, so the page that only asks
// whether a lab has one pulls in no runtime; the cluster worker loads the one it runs.
import type { LabRun, LabScenario } from '../../../labs/lab-scenario.ts';

const modules = import.meta.glob<{ default: LabScenario<LabRun> }>('../../../labs/*/scenario.ts');

const pathOf = (slug: string) => `../../../labs/${slug}/scenario.ts`;

/** Whether the lab plugs into a live cluster (it has a scenario.ts): it then gets "Run in cluster". */
export function hasClusterScenario(slug: string): boolean {
  return pathOf(slug) in modules;
}

/** The lab's scenario, or undefined when it has none. */
export async function loadClusterScenario(slug: string): Promise<LabScenario<LabRun> | undefined> {
  const load = modules[pathOf(slug)];
  return load ? (await load()).default : undefined;
}
