// The replicas of a Scale body, as encoding/json decodes ScaleSpec.Replicas (an int32).
import { describe, expect, it } from 'vitest';
import { replicasFromScale } from './scale.ts';

describe('replicasFromScale', () => {
  it.each([
    [{ spec: { replicas: 3 } }, 3],
    [{ spec: {} }, 0],
    [{ spec: { replicas: 2147483647 } }, 2147483647],
    // past an int32: once taken as asked, a Deployment of 2^31 replicas
    [{ spec: { replicas: 2147483648 } }, 'json: cannot unmarshal number 2147483648 into Go struct field ScaleSpec.spec.replicas of type int32'],
    [{ spec: { replicas: -2147483649 } }, 'json: cannot unmarshal number -2147483649 into Go struct field ScaleSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 1.5 } }, 'json: cannot unmarshal into Go struct field ScaleSpec.spec.replicas of type int32'],
  ])('%j -> %j', (body, want) => expect(replicasFromScale(body)).toBe(want));
});
