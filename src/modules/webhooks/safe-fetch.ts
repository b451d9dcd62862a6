import { lookup } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/** Only public unicast addresses: no loopback, private, link-local or other reserved ranges. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

export class BlockedAddressError extends Error {}

/**
 * An HTTP dispatcher for calls to customer-given URLs: every address a name resolves to is checked
 * at connect time (so DNS rebinding cannot slip a private address in after a check), unless the
 * operator allows private targets.
 */
export function guardedAgent(allowPrivate: boolean): Agent {
  return new Agent({
    connect: {
      lookup: (hostname, options, callback) => {
        lookup(hostname, { ...options, all: true }, (err, addresses) => {
          if (err) return callback(err, '', 0);
          const list = addresses as { address: string; family: number }[];
          const blocked = list.find((a) => !allowPrivate && !isPublicAddress(a.address));
          if (blocked) {
            return callback(
              new BlockedAddressError(`${hostname} resolves to ${blocked.address}, a private address`),
              '',
              0,
            );
          }
          if (options.all) return callback(null, list as never, 0);
          callback(null, list[0]!.address, list[0]!.family);
        });
      },
    },
  });
}

/** A URL whose host is an address literal is checked here, as it never goes through a lookup. */
export function assertAllowedHost(url: string, allowPrivate: boolean): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw new BlockedAddressError(`${host} is a private address`);
  }
}

/** How long adding an endpoint waits on DNS; past it the name is left to the check at delivery. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Whether a URL's host is, or resolves to, an address that is not public: told when an endpoint is
 * added, so it is refused then rather than failing every delivery. A name that does not resolve
 * (yet) passes: each delivery checks again at connect time.
 */
export async function privateAddressOf(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? null : host;
  if (host === 'localhost' || host.endsWith('.localhost')) return host;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookupAll(host, { all: true }), timeout]);
    return addresses.find((a) => !isPublicAddress(a.address))?.address ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
