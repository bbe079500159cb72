// Secret validation, and the update rules Secrets and ConfigMaps share: mirrors
// pkg/apis/core/validation/validation.go ValidateSecret, ValidateSecretUpdate and
// ValidateConfigMapUpdate. Data arrives base64 (decoding already refused bad base64).
import { decodeBase64, decodeBase64Text } from '../base64.ts';
import { Path } from '../field/path.ts';
import { forbidden, invalid, required, tooLong, type FieldError } from '../field/errors.ts';
import { isObject, optStringMap, type JsonObject } from './common.ts';
import { isConfigMapKey } from './names.ts';

/** core.MaxSecretSize: 1 MiB of data. */
const MAX_SECRET_SIZE = 1024 * 1024;
const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';

/** The decoded size of a base64 value (its bytes), 0 for what decoding would have refused. */
function byteLength(b64: string): number {
  const d = decodeBase64(b64);
  return d.ok ? d.bytes.length : 0;
}


export function validateSecret(obj: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const dataPath = Path.of('data');
  const data = optStringMap(obj.data, dataPath, errs);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, msg));
    total += byteLength(value);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(dataPath, MAX_SECRET_SIZE));
  const annotations = isObject(obj.metadata) && isObject(obj.metadata.annotations) ? obj.metadata.annotations : {};
  switch (obj.type) {
    case 'kubernetes.io/service-account-token':
      if (!annotations[SERVICE_ACCOUNT_NAME_KEY]) errs.push(required(Path.of('metadata', 'annotations').key(SERVICE_ACCOUNT_NAME_KEY), ''));
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = obj.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!(key in data)) {
        errs.push(required(dataPath.key(key), ''));
        break;
      }
      const json = jsonError(decodeBase64Text(data[key]!));
      if (json !== undefined) errs.push(invalid(dataPath.key(key), '<secret contents redacted>', json));
      break;
    }
    case 'kubernetes.io/basic-auth':
      // upstream spells this path with a literal "data[%s]" (a format string it never formats)
      if (!('username' in data) && !('password' in data)) {
        errs.push(required(Path.of('data[%s]').key('username'), ''), required(Path.of('data[%s]').key('password'), ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (byteLength(data['ssh-privatekey'] ?? '') === 0) errs.push(required(Path.of('data[%s]').key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!('tls.crt' in data)) errs.push(required(dataPath.key('tls.crt'), ''));
      if (!('tls.key' in data)) errs.push(required(dataPath.key('tls.key'), ''));
      break;
  }
  return errs;
}

/**
 * Why a docker config is not a JSON object, in encoding/json's words where they do not depend on
 * the input (Go's syntax errors also name the offending character; this keeps its usual wording).
 */
function jsonError(value: string): string | undefined {
  try {
    const parsed = JSON.parse(value) as unknown;
    return isObject(parsed) ? undefined : 'json: cannot unmarshal into Go value of type map[string]interface {}';
  } catch {
    return value.trim() === '' ? 'unexpected end of JSON input' : "invalid character looking for beginning of value";
  }
}

/** ValidateSecretUpdate: the type never changes; an immutable Secret keeps its data and stays immutable. */
export function validateSecretUpdate(next: JsonObject, old: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((next.type ?? '') !== (old.type ?? '')) errs.push(invalid(Path.of('type'), next.type ?? '', 'field is immutable'));
  errs.push(...immutableDataRules(next, old, ['data']));
  return errs;
}

/** ValidateConfigMapUpdate's rules for immutable ConfigMaps. */
export function validateConfigMapUpdate(next: JsonObject, old: JsonObject): FieldError[] {
  return immutableDataRules(next, old, ['data', 'binaryData']);
}

function immutableDataRules(next: JsonObject, old: JsonObject, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (next.immutable !== true) errs.push(forbidden(Path.of('immutable'), 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    if (JSON.stringify(sorted(next[f])) !== JSON.stringify(sorted(old[f]))) errs.push(forbidden(Path.of(f), 'field is immutable when `immutable` is set'));
  }
  return errs;
}

const sorted = (v: unknown): unknown => (isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v ?? {});
