// Validation of NodeResourcesFitArgs. mirrors pkg/scheduler/apis/config/validation/
// validation_pluginargs.go (ValidateNodeResourcesFitArgs, validateResources,
// ValidateRequestedToCapacityRatioArgs / validateFunctionShape).
const STRATEGIES = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'];

interface RawFitArgs {
  scoringStrategy?: {
    type?: unknown;
    resources?: { name?: unknown; weight?: unknown }[];
    requestedToCapacityRatio?: { shape?: { utilization?: unknown; score?: unknown }[] };
  };
}

function validateShape(
  shape: RawFitArgs['scoringStrategy'] extends infer S ? S : never,
  path: string,
  errors: string[],
): void {
  const points = shape?.requestedToCapacityRatio?.shape ?? [];
  const p = `${path}.requestedToCapacityRatio.shape`;
  if (points.length === 0) {
    errors.push(`${p}: Required value: at least one point must be specified`);
    return;
  }
  points.forEach((pt, i) => {
    const u = pt.utilization;
    const s = pt.score;
    if (typeof u !== 'number' || u < 0 || u > 100)
      errors.push(
        `${p}[${i}].utilization: Invalid value: ${JSON.stringify(u)}: not in valid range [0, 100]`,
      );
    if (typeof s !== 'number' || s < 0 || s > 10)
      errors.push(
        `${p}[${i}].score: Invalid value: ${JSON.stringify(s)}: not in valid range [0, 10]`,
      );
    const prev = points[i - 1]?.utilization;
    if (i > 0 && typeof u === 'number' && typeof prev === 'number' && u <= prev) {
      errors.push(
        `${p}[${i}].utilization: Invalid value: ${u}: utilization values must be sorted in increasing order`,
      );
    }
  });
}

export function validateFitArgs(raw: unknown, path: string): string[] {
  const errors: string[] = [];
  const s = (raw as RawFitArgs | null)?.scoringStrategy;
  const p = `${path}.scoringStrategy`;
  if (!s) return errors;
  if (!STRATEGIES.includes(String(s.type))) {
    errors.push(
      `${p}.type: Unsupported value: ${JSON.stringify(s.type)}: supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`,
    );
  }
  (s.resources ?? []).forEach((r, i) => {
    if (r.name !== 'cpu' && r.name !== 'memory' && r.name !== 'ephemeral-storage') {
      errors.push(
        `${p}.resources[${i}].name: Unsupported value: ${JSON.stringify(r.name)}: supported values: "cpu", "memory", "ephemeral-storage"`,
      );
    }
    if (typeof r.weight !== 'number' || r.weight < 1 || r.weight > 100) {
      errors.push(
        `${p}.resources[${i}].weight: Invalid value: ${JSON.stringify(r.weight)}: resource weight of ${String(r.name)} not in valid range [1, 100]`,
      );
    }
  });
  if (s.type === 'RequestedToCapacityRatio') validateShape(s, p, errors);
  return errors;
}
