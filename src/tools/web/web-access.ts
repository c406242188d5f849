/**
 * What a run lets web_fetch reach beyond the public internet: hosts the user's own config
 * names (`webFetch.privateHosts`) may resolve to loopback or private addresses. A workspace
 * config cannot set it.
 */
export interface WebAccess {
  /** Host names (lower case, exact) allowed to resolve to any address. */
  privateHosts: readonly string[];
}

/** Whether this host may resolve to a non-public address. */
export function mayReachPrivate(access: WebAccess | undefined, host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return access?.privateHosts.some((allowed) => allowed.toLowerCase() === name) ?? false;
}
