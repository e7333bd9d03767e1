import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard of webhook requests. Only globally routable unicast addresses are allowed: loopback,
 * RFC 1918, unique local (fc00::/7), link-local, CGNAT (100.64/10), 0.0.0.0/8, multicast,
 * broadcast, reserved and documentation ranges, and every IPv6 form that embeds an IPv4 address
 * (mapped, NAT64, 6to4, Teredo) are refused. ipaddr.js knows the ranges; anything it does not
 * call `unicast` is refused, so a range added to it later is refused too.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address.
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/** Why a host cannot be used: it does not resolve, or one of its addresses is not public. */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly reason: 'unresolvable' | 'privateAddress',
    readonly address?: string,
  ) {
    super(
      reason === 'unresolvable'
        ? `${host} does not resolve`
        : `${host} resolves to ${address}, which is not a public address`,
    );
    this.name = 'ForbiddenAddressError';
  }
}

/** The hostname of a URL as net.connect gets it (IPv6 literals without brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

type Resolve = (host: string) => Promise<LookupAddress[]>;
const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * The addresses of `host`, every one of them public (a name with one private address among
 * public ones is refused: the connection could pick it). An IP literal is checked as it is.
 */
export async function resolvePublic(host: string, resolve: Resolve = systemResolve) {
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new ForbiddenAddressError(host, 'privateAddress', host);
    return [{ address: host, family: net.isIP(host) }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new ForbiddenAddressError(host, 'unresolvable');
  }
  if (!addresses.length) throw new ForbiddenAddressError(host, 'unresolvable');
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new ForbiddenAddressError(host, 'privateAddress', bad.address);
  return addresses;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls.connect (undici's `connect` option): the connection goes to the address
 * this function checked, so a name that resolves to a public address at registration and to a
 * private one later (DNS rebinding) is refused at the moment of the connection, with no second
 * lookup in between.
 */
export function guardedLookup(resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolvePublic(hostname, resolve).then(
      (addresses) => {
        const wanted = options?.family === 4 || options?.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (!usable.length) {
          const err: NodeJS.ErrnoException = new Error(
            `${hostname}: no address of family ${wanted}`,
          );
          err.code = 'ENOTFOUND';
          callback(err, '');
          return;
        }
        if (options?.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (err: Error) => {
        const e: NodeJS.ErrnoException = err;
        e.code = 'EWEBHOOKFORBIDDEN';
        callback(e, '');
      },
    );
  };
}
