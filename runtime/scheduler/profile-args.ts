// Validation of NodeResourcesFitArgs and NodeAffinityArgs. mirrors pkg/scheduler/apis/config/validation/
// validation_pluginargs.go (ValidateNodeResourcesFitArgs, validateResources,
// ValidateRequestedToCapacityRatioArgs / validateFunctionShape, ValidateNodeAffinityArgs).
import { newRequirement, Path } from '../api/index.ts';

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

// ---------------------------------------------------------------- NodeAffinityArgs

interface RawRequirement {
  key?: unknown;
  operator?: unknown;
  values?: unknown;
}
interface RawTerm {
  matchExpressions?: RawRequirement[];
  matchFields?: RawRequirement[];
}

const LABEL_OPERATORS: Readonly<Record<string, string>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };

/**
 * newNodeSelectorTerm's parse errors (component-helpers nodeaffinity.go): matchExpressions through
 * labels.NewRequirement (an unknown operator is NotSupported with no list), matchFields only In or
 * NotIn with exactly one value.
 */
function termErrors(term: RawTerm, path: string, errors: string[]): void {
  (term.matchExpressions ?? []).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const op = LABEL_OPERATORS[String(r.operator)];
    if (op === undefined) {
      errors.push(`${p}.operator: Unsupported value: ${JSON.stringify(r.operator ?? '')}`);
      return;
    }
    const values = Array.isArray(r.values) ? r.values.map(String) : [];
    const req = newRequirement(String(r.key ?? ''), op, values, pathOf(p));
    if (!req.ok) errors.push(req.error);
  });
  (term.matchFields ?? []).forEach((r, i) => {
    const p = `${path}.matchFields[${i}]`;
    const values = Array.isArray(r.values) ? r.values : [];
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length !== 1) errors.push(`${p}.values: Invalid value: ${goStrings(values)}: must have one element`);
    } else {
      errors.push(`${p}.operator: Unsupported value: ${JSON.stringify(r.operator ?? '')}: supported values: "In", "NotIn"`);
    }
  });
}

const isEmptyTerm = (t: RawTerm | undefined): boolean => (t?.matchExpressions ?? []).length === 0 && (t?.matchFields ?? []).length === 0;

/** []string{"a", "b"} as field errors print a string slice. */
const goStrings = (values: unknown[]): string => `[]string{${values.map((v) => JSON.stringify(String(v))).join(', ')}}`;

/** A field.Path from its text ("a.b[0].c"), for newRequirement's paths. */
function pathOf(text: string): Path {
  const parts = text.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let p: Path | undefined;
  for (const part of parts) {
    if (part.startsWith('[')) p = p!.at(Number(part.slice(1, -1)));
    else p = p ? p.child(part) : Path.of(part);
  }
  return p!;
}

/**
 * ValidateNodeAffinityArgs (validation_pluginargs.go): the addedAffinity's required NodeSelector
 * (NewNodeSelector) and preferred terms (NewPreferredSchedulingTerms, whose paths skip
 * "preference", as upstream's do) must parse.
 */
export function validateNodeAffinityArgs(raw: unknown, path: string): string[] {
  const errors: string[] = [];
  const added = (raw as { addedAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: RawTerm[] }; preferredDuringSchedulingIgnoredDuringExecution?: { weight?: unknown; preference?: RawTerm }[] } } | null)?.addedAffinity;
  if (!added) return errors;
  const required = added.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) {
    (required.nodeSelectorTerms ?? []).forEach((t, i) => {
      if (!isEmptyTerm(t)) termErrors(t, `${path}.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`, errors);
    });
  }
  (added.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
    if (t.weight === 0 || isEmptyTerm(t.preference)) return;
    termErrors(t.preference ?? {}, `${path}.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`, errors);
  });
  return errors;
}
