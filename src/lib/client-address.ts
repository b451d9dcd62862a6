import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client under. The same client must not get a fresh
 * allowance by writing its address another way (`::ffff:5.5.5.5` for `5.5.5.5`, upper-case IPv6),
 * nor by moving within its IPv6 /64, which one subscriber is usually given whole: an IPv4 address
 * counts alone, an IPv6 address by its /64.
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.toLowerCase();
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
