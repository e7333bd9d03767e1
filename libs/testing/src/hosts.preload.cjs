// Loaded into a test's child process with `--require` (startStack's replicas): the host names of
// TEST_HOSTS (`name=127.0.0.2,127.0.0.3;other=...`) resolve to those addresses, all of them, as
// Docker's DNS answers the name of a service scaled to several containers. Any other name
// resolves as usual. Test support only: never part of a build.
'use strict';
const dns = require('node:dns');

const hosts = new Map(
  (process.env.TEST_HOSTS ?? '')
    .split(';')
    .filter(Boolean)
    .map((entry) => {
      const [name, list] = entry.split('=');
      return [name.trim().toLowerCase(), list.split(',').map((a) => a.trim())];
    }),
);

const answers = (hostname, options) => {
  const all = hosts.get(String(hostname).toLowerCase());
  if (!all) return null;
  const found = all.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return typeof options === 'object' && options?.all ? found : found[0];
};

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const found = answers(hostname, typeof options === 'function' ? {} : options);
  if (!found) return lookup.apply(this, arguments);
  process.nextTick(() =>
    Array.isArray(found) ? cb(null, found) : cb(null, found.address, found.family),
  );
  return {};
};

const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async function (hostname, options) {
  return answers(hostname, options) ?? lookupPromise.call(this, hostname, options);
};
