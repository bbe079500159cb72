// The cluster's CA bundle as kubeadm writes /etc/kubernetes/pki/ca.crt: a PEM certificate block.
// The simulation signs nothing, so the bytes inside are a stand-in derived from the cluster's seed
// (each cluster has its own, as each real cluster has its own CA), not a parseable certificate.
import { encodeBase64 } from '../api/index.ts';
import { splitmix32 } from '../kernel/index.ts';

/** Bytes a kubeadm CA certificate's DER is about (RSA 2048, self-signed, "kubernetes"). */
const DER_LENGTH = 1107;

export function clusterCAPem(seed: number): string {
  let state = seed ^ 0x5ca1ab1e;
  const bytes = Array.from({ length: DER_LENGTH }, () => (state = splitmix32(state)) & 0xff);
  // an ASN.1 SEQUENCE header of the right length, so the text begins "MII" as certificates do
  bytes.splice(0, 4, 0x30, 0x82, (DER_LENGTH - 4) >> 8, (DER_LENGTH - 4) & 0xff);
  const b64 = encodeBase64(bytes);
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
