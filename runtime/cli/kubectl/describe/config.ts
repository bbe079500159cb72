// kubectl describe configmap | secret (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// ConfigMapDescriber, SecretDescriber). A ConfigMap shows its values; a Secret only how many bytes
// each key holds (a service account token excepted), never the values. Go ranges over the maps in
// random order; keys are sorted here so the same object always describes the same way.
import { decodeBase64, decodeBase64Text, type ConfigMap, type CoreEvent, type Secret } from '../../../api/index.ts';
import { writeEvents } from './events.ts';
import { LEVEL_0, PrefixWriter, writeAnnotations, writeLabels } from './writer.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const sortedKeys = (m: Record<string, string> | undefined): string[] => Object.keys(m ?? {}).sort();
const byteCount = (b64: string): number => {
  const d = decodeBase64(b64);
  return d.ok ? d.bytes.length : 0;
};

export function describeConfigMap(cm: ConfigMap, events: readonly CoreEvent[], nowMs: number): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${cm.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', cm.metadata.labels);
  writeAnnotations(w, 'Annotations', cm.metadata.annotations);
  w.write(LEVEL_0, '\nData\n====\n');
  for (const k of sortedKeys(cm.data)) w.write(LEVEL_0, `${k}:\n----\n${cm.data![k]!}\n\n`);
  w.write(LEVEL_0, '\nBinaryData\n====\n');
  for (const k of sortedKeys(cm.binaryData)) w.write(LEVEL_0, `${k}: ${byteCount(cm.binaryData![k]!)} bytes\n`);
  w.write(LEVEL_0, '\n');
  writeEvents(w, events, nowMs);
  return w.toString();
}

export function describeSecret(secret: Secret): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${secret.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${secret.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', secret.metadata.labels);
  const annotations = { ...secret.metadata.annotations };
  delete annotations[LAST_APPLIED];
  writeAnnotations(w, 'Annotations', annotations);
  w.write(LEVEL_0, `\nType:\t${secret.type ?? ''}\n`);
  w.write(LEVEL_0, '\nData\n====\n');
  for (const k of sortedKeys(secret.data)) {
    const value = secret.data![k]!;
    if (k === 'token' && secret.type === 'kubernetes.io/service-account-token') w.write(LEVEL_0, `${k}:\t${decodeBase64Text(value)}\n`);
    else w.write(LEVEL_0, `${k}:\t${byteCount(value)} bytes\n`);
  }
  return w.toString();
}
