// Deployment, ReplicaSet and DaemonSet validation.
// mirrors pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateDeploymentStrategy,
// ValidateRollingUpdateDeployment, ValidateReplicaSetSpec, ValidateDaemonSetSpec) and
// pkg/apis/core/validation/validation.go ValidatePodTemplateSpecForReplicaSet.
import { Path } from '../field/path.ts';
import { forbidden, invalid, notSupported, required, type FieldError } from '../field/errors.ts';
import { labelSelectorAsSelector } from '../labels/selector.ts';
import type { LabelSelector } from '../types/meta.ts';
import { isValidPercent } from './names.ts';
import {
  nonNegative,
  optInt,
  optObject,
  optString,
  optStringMap,
  validateLabelSelector,
  validateLabels,
  validateAnnotations,
  type JsonObject,
} from './common.ts';
import { validatePodSpec } from './pod.ts';

/** Prints a selector the way Go's %#v prints the *metav1.LabelSelector in upstream messages. */
class GoLabelSelector {
  constructor(private readonly sel: JsonObject) {}
  toString(): string {
    const ml = this.sel.matchLabels;
    const labels =
      ml && typeof ml === 'object' && !Array.isArray(ml)
        ? `map[string]string{${Object.keys(ml)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${JSON.stringify((ml as JsonObject)[k])}`)
            .join(', ')}}`
        : 'map[string]string(nil)';
    const me = this.sel.matchExpressions;
    const exprs =
      Array.isArray(me) && me.length > 0
        ? `[]v1.LabelSelectorRequirement{...}`
        : '[]v1.LabelSelectorRequirement(nil)';
    return `&v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${exprs}}`;
  }
}

/** Selector required, non-empty, valid, and matching the template labels; template restartPolicy Always. */
function validateSelectorAndTemplate(
  spec: JsonObject,
  path: Path,
  kindWord: 'deployment' | 'daemonset',
  labelsPath: Path,
): FieldError[] {
  const errs: FieldError[] = [];
  const selector = optObject(spec.selector, path.child('selector'), errs);
  const template = optObject(spec.template, path.child('template'), errs);
  if (!selector) {
    if (errs.length === 0) errs.push(required(path.child('selector'), ''));
  } else {
    errs.push(...validateLabelSelector(selector, path.child('selector')));
    const ml = selector.matchLabels;
    const me = selector.matchExpressions;
    const size =
      (ml && typeof ml === 'object' ? Object.keys(ml).length : 0) +
      (Array.isArray(me) ? me.length : 0);
    if (size === 0)
      errs.push(
        invalid(
          path.child('selector'),
          new GoLabelSelector(selector),
          `empty selector is invalid for ${kindWord}`,
        ),
      );
  }
  if (!template) {
    if (spec.template === undefined || spec.template === null)
      errs.push(required(path.child('template'), ''));
    return errs;
  }
  const tmplPath = path.child('template');
  const meta = optObject(template.metadata, tmplPath.child('metadata'), errs) ?? {};
  const labels = optStringMap(meta.labels, tmplPath.child('metadata', 'labels'), errs);
  errs.push(...validateLabels(labels, tmplPath.child('metadata', 'labels')));
  errs.push(
    ...validateAnnotations(
      optStringMap(meta.annotations, tmplPath.child('metadata', 'annotations'), errs),
      tmplPath.child('metadata', 'annotations'),
    ),
  );
  if (selector && errs.length === 0) {
    const s = labelSelectorAsSelector(selector as LabelSelector);
    if (!s.ok)
      errs.push(
        invalid(path.child('selector'), new GoLabelSelector(selector), 'invalid label selector'),
      );
    else if (!s.selector.empty() && !s.selector.matches(labels)) {
      errs.push(invalid(labelsPath, labels, '`selector` does not match template `labels`'));
    }
  }
  const specPath = tmplPath.child('spec');
  errs.push(...validatePodSpec(template.spec, specPath));
  const tspec = optObject(template.spec, specPath, []);
  const restart = tspec && typeof tspec.restartPolicy === 'string' ? tspec.restartPolicy : '';
  if (restart !== '' && restart !== 'Always')
    errs.push(notSupported(specPath.child('restartPolicy'), restart, ['Always']));
  if (tspec && tspec.activeDeadlineSeconds !== undefined && tspec.activeDeadlineSeconds !== null) {
    errs.push(
      forbidden(
        specPath.child('activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicaSet is not Supported',
      ),
    );
  }
  return errs;
}

/** The int or percent value upstream's getIntOrPercentValue compares against 0. */
function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v)) return Number(v.slice(0, -1));
  return -1;
}

/** ValidatePositiveIntOrPercent + IsNotMoreThan100Percent. */
function validateIntOrPercent(v: unknown, path: Path): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    const errs = isValidPercent(v).map((msg) => invalid(path, v, msg));
    if (errs.length === 0 && intOrPercentValue(v) > 100)
      errs.push(invalid(path, v, 'must not be greater than 100%'));
    return errs;
  }
  if (typeof v === 'number' && Number.isInteger(v)) return nonNegative(v, path);
  return [invalid(path, v, "must be an integer or percentage (e.g '5%')")];
}

function validateDeploymentStrategy(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = optObject(raw, path, errs);
  if (!strategy) return errs;
  const type = optString(strategy.type, path.child('type'), errs) ?? '';
  const ru = optObject(strategy.rollingUpdate, path.child('rollingUpdate'), errs);
  if (type === 'Recreate') {
    if (ru)
      errs.push(
        forbidden(
          path.child('rollingUpdate'),
          "may not be specified when strategy `type` is 'Recreate'",
        ),
      );
  } else if (type === 'RollingUpdate') {
    if (!ru)
      errs.push(required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
    else {
      const p = path.child('rollingUpdate');
      errs.push(...validateIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')));
      errs.push(...validateIntOrPercent(ru.maxSurge, p.child('maxSurge')));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(
          invalid(
            p.child('maxUnavailable'),
            ru.maxUnavailable,
            'may not be 0 when `maxSurge` is 0',
          ),
        );
      }
    }
  } else {
    errs.push(
      type === ''
        ? required(path.child('type'), '')
        : notSupported(path.child('type'), type, ['Recreate', 'RollingUpdate']),
    );
  }
  return errs;
}

export function validateDeployment(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs);
  if (!spec) return errs.length ? errs : [required(path, '')];
  errs.push(
    ...nonNegative(optInt(spec.replicas, path.child('replicas'), errs), path.child('replicas')),
  );
  errs.push(
    ...validateSelectorAndTemplate(
      spec,
      path,
      'deployment',
      path.child('template', 'metadata', 'labels'),
    ),
  );
  errs.push(...validateDeploymentStrategy(spec.strategy, path.child('strategy')));
  const minReady = optInt(spec.minReadySeconds, path.child('minReadySeconds'), errs);
  errs.push(...nonNegative(minReady, path.child('minReadySeconds')));
  errs.push(
    ...nonNegative(
      optInt(spec.revisionHistoryLimit, path.child('revisionHistoryLimit'), errs),
      path.child('revisionHistoryLimit'),
    ),
  );
  const deadline = optInt(
    spec.progressDeadlineSeconds,
    path.child('progressDeadlineSeconds'),
    errs,
  );
  if (deadline !== undefined) {
    errs.push(...nonNegative(deadline, path.child('progressDeadlineSeconds')));
    if (deadline <= (minReady ?? 0))
      errs.push(
        invalid(
          path.child('progressDeadlineSeconds'),
          deadline,
          'must be greater than minReadySeconds',
        ),
      );
  }
  return errs;
}

export function validateReplicaSet(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs);
  if (!spec) return errs.length ? errs : [required(path, '')];
  errs.push(
    ...nonNegative(optInt(spec.replicas, path.child('replicas'), errs), path.child('replicas')),
  );
  errs.push(
    ...nonNegative(
      optInt(spec.minReadySeconds, path.child('minReadySeconds'), errs),
      path.child('minReadySeconds'),
    ),
  );
  // upstream's ReplicaSet message also says "deployment"
  errs.push(
    ...validateSelectorAndTemplate(
      spec,
      path,
      'deployment',
      path.child('template', 'metadata', 'labels'),
    ),
  );
  return errs;
}

export function validateDaemonSet(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs);
  if (!spec) return errs.length ? errs : [required(path, '')];
  errs.push(
    ...validateSelectorAndTemplate(
      spec,
      path,
      'daemonset',
      path.child('template', 'metadata', 'labels'),
    ),
  );
  errs.push(
    ...nonNegative(
      optInt(spec.minReadySeconds, path.child('minReadySeconds'), errs),
      path.child('minReadySeconds'),
    ),
  );
  errs.push(
    ...nonNegative(
      optInt(spec.revisionHistoryLimit, path.child('revisionHistoryLimit'), errs),
      path.child('revisionHistoryLimit'),
    ),
  );
  const us = optObject(spec.updateStrategy, path.child('updateStrategy'), errs);
  const type = us ? (optString(us.type, path.child('updateStrategy', 'type'), errs) ?? '') : '';
  if (us && type !== 'RollingUpdate' && type !== 'OnDelete') {
    errs.push(
      notSupported(path.child('updateStrategy', 'type'), type, ['OnDelete', 'RollingUpdate']),
    );
  }
  const ru = us
    ? optObject(us.rollingUpdate, path.child('updateStrategy', 'rollingUpdate'), errs)
    : undefined;
  if (ru) {
    const p = path.child('updateStrategy', 'rollingUpdate');
    errs.push(...validateIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')));
    errs.push(...validateIntOrPercent(ru.maxSurge, p.child('maxSurge')));
    if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
      errs.push(
        invalid(p.child('maxUnavailable'), ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'),
      );
    }
  }
  return errs;
}
