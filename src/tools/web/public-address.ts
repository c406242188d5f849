import ipaddr from 'ipaddr.js';

/**
 * Why web_fetch may not connect to this IP address, or undefined when it may: only public
 * unicast addresses are reached. Loopback, private (10/8, 172.16/12, 192.168/16), link-local
 * (169.254/16, where cloud metadata services answer), unique-local (fc00::/7), carrier-grade NAT,
 * multicast, reserved and the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4,
 * Teredo) are refused; an IPv4-mapped IPv6 address is judged as the IPv4 address it is.
 */
export function blockedAddressRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}
