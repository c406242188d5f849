import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { blockedAddressRange } from './public-address.js';
import { mayReachPrivate, type WebAccess } from './web-access.js';

/** A fetch web_fetch will not make, with the reason the model and the user read. */
export class WebFetchRefusal extends Error {}

const REQUEST_HEADERS = {
  'user-agent': 'taskweave-web-fetch (+https://github.com/taskweave)',
  accept: 'text/html, application/xhtml+xml, application/json, text/plain;q=0.9, text/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
};

/**
 * One GET of one URL, without following redirects. The host's addresses are checked where the
 * socket connects (the lookup the connection itself uses), so a name cannot resolve to a public
 * address for the check and to a private one for the connection.
 */
export function guardedRequest(
  url: URL,
  options: { signal: AbortSignal; access: WebAccess | undefined },
): Promise<http.IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const privateAllowed = mayReachPrivate(options.access, host);
  // A literal address is connected to without a lookup: it is checked here.
  if (net.isIP(host) !== 0 && !privateAllowed) {
    const range = blockedAddressRange(host);
    if (range !== undefined) return Promise.reject(refusedAddress(url.hostname, host, range));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      headers: REQUEST_HEADERS,
      signal: options.signal,
      // A fresh socket per request: no pooled connection skips the lookup below.
      agent: false,
      lookup: privateAllowed ? dns.lookup : checkedLookup,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end();
  });
}

/** dns.lookup, failing when any address of the name is not public. */
const checkedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const range = blockedAddressRange(address);
      if (range !== undefined) return callback(refusedAddress(hostname, address, range), '', 0);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (first === undefined) return callback(new Error(`${hostname} has no address`), '', 0);
    callback(null, first.address, first.family);
  });
};

function refusedAddress(hostname: string, address: string, range: string): WebFetchRefusal {
  const where = hostname === address ? address : `${hostname} resolves to ${address}`;
  return new WebFetchRefusal(
    `${where}, a ${range} address: web_fetch only reaches public addresses (a host of your own ` +
      'network can be allowed in your config: "webFetch": { "privateHosts": ["name"] }).',
  );
}
