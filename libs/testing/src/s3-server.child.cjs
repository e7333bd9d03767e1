// The process of startS3Server (s3-server.ts): runs s3rver and reports its port. A process of
// its own because s3rver's list continuation tokens use DES, which Node's OpenSSL 3 only offers
// with --openssl-legacy-provider; that flag stays out of the test process.
const S3rver = require('s3rver');

process.once('message', ({ directory, buckets }) => {
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  server.run().then(
    ({ port }) => process.send({ port }),
    (err) => process.send({ error: String(err?.stack ?? err) }),
  );
});
// The test process went away (or stop() disconnected): no server outlives it.
process.on('disconnect', () => process.exit(0));
