// core/v1 Endpoints validation. mirrors pkg/apis/core/validation/validation.go (ValidateEndpoints,
// validateEndpointSubsets, validateEndpointAddress, validateEndpointPort, ValidateNonSpecialIP),
// for IPv4 addresses (the simulation has no IPv6).
import { Path } from '../field/path.ts';
import { invalid, notSupported, required, type FieldError } from '../field/errors.ts';
import { optArray, optInt, optObject, optString, type JsonObject } from './common.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from './names.ts';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

export function validateEndpoints(obj: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  optArray(obj.subsets, Path.of('subsets'), errs).forEach((raw, i) => {
    const p = Path.of('subsets').at(i);
    const ss = optObject(raw, p, errs);
    if (!ss) return;
    const addresses = optArray(ss.addresses, p.child('addresses'), errs);
    const notReady = optArray(ss.notReadyAddresses, p.child('notReadyAddresses'), errs);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateEndpointAddress(a, p.child('addresses').at(j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, p.child('notReadyAddresses').at(j))));
    const ports = optArray(ss.ports, p.child('ports'), errs);
    ports.forEach((port, j) => errs.push(...validateEndpointPort(port, ports.length > 1, p.child('ports').at(j))));
  });
  return errs;
}

function validateEndpointAddress(raw: unknown, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const a = optObject(raw, p, errs);
  if (!a) return errs;
  const ip = optString(a.ip, p.child('ip'), errs) ?? '';
  const octets = parseIPv4(ip);
  // IsValidIPForLegacyField first, ValidateNonSpecialIP last (it says it again for a bad address)
  if (!octets) errs.push(invalid(p.child('ip'), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  const hostname = optString(a.hostname, p.child('hostname'), errs);
  if (hostname) for (const msg of isDNS1123Label(hostname)) errs.push(invalid(p.child('hostname'), hostname, msg));
  const nodeName = optString(a.nodeName, p.child('nodeName'), errs);
  if (nodeName !== undefined) for (const msg of isDNS1123Subdomain(nodeName)) errs.push(invalid(p.child('nodeName'), nodeName, msg));
  if (!octets) {
    errs.push(invalid(p.child('ip'), ip, 'must be a valid IP address'));
    return errs;
  }
  const [o1, o2, o3] = octets;
  if (octets.every((o) => o === 0)) errs.push(invalid(p.child('ip'), ip, `may not be unspecified (${ip})`));
  if (o1 === 127) errs.push(invalid(p.child('ip'), ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (o1 === 169 && o2 === 254) errs.push(invalid(p.child('ip'), ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (o1 === 224 && o2 === 0 && o3 === 0) errs.push(invalid(p.child('ip'), ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateEndpointPort(raw: unknown, requireName: boolean, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const port = optObject(raw, p, errs);
  if (!port) return errs;
  const name = optString(port.name, p.child('name'), errs) ?? '';
  if (requireName && name === '') errs.push(required(p.child('name'), ''));
  else if (name !== '') for (const msg of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, msg));
  const num = optInt(port.port, p.child('port'), errs) ?? 0;
  for (const msg of isValidPortNum(num)) errs.push(invalid(p.child('port'), num, msg));
  const protocol = optString(port.protocol, p.child('protocol'), errs) ?? '';
  if (protocol === '') errs.push(required(p.child('protocol'), ''));
  else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, PROTOCOLS));
  const appProtocol = optString(port.appProtocol, p.child('appProtocol'), errs);
  if (appProtocol !== undefined) for (const msg of isQualifiedName(appProtocol)) errs.push(invalid(p.child('appProtocol'), appProtocol, msg));
  return errs;
}

/** netutils.ParseIPSloppy for IPv4: four decimal octets (leading zeros allowed, as Go's sloppy parser does). */
function parseIPv4(ip: string): number[] | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) return undefined;
  return parts.map(Number);
}
