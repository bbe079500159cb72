// networking.k8s.io/v1 IPAddress and ServiceCIDR validation (names only; the specs are written by
// the API server itself here). mirrors pkg/apis/networking/validation/validation.go
// (ValidateIPAddressName: the name is an IP in canonical form; ServiceCIDRs are DNS subdomains).
import type { NameValidator } from './common.ts';

/** ValidateIPAddressName for IPv4 (netip.ParseAddr's texts); "010.96.0.1" is not canonical. */
export const nameIsCanonicalIP: NameValidator = (name) => {
  const parts = name.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) {
    return [`ParseAddr(${JSON.stringify(name)}): unable to parse IP`];
  }
  return parts.map(Number).join('.') === name ? [] : ['must be a canonical format IP address'];
};
