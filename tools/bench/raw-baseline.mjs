// The raw baseline: node:http + pg, inserting the same row shape crm-people writes for a create,
// returning it in the envelope. No framework, no validation: the floor the service is measured against.
import http from 'node:http';
import pg from 'pg';

const COLUMNS = [
  'id',
  'tenantId',
  'salutation',
  'title',
  'firstname',
  'lastname',
  'birthday',
  'considerBirthYear',
  'importantDates',
  'socialMedias',
  'customerNumber',
  'employeeStatus',
  'employeeNumber',
  'lifecycleId',
  'createdBy',
  'modifiedBy',
  'dateCreated',
  'dateModified',
];
const SQL = `INSERT INTO "Person" (${COLUMNS.map((c) => `"${c}"`).join(', ')})
  VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, now(), now())
  RETURNING *`;

export async function startRawBaseline(port, connectionString) {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', async () => {
      try {
        const b = JSON.parse(data);
        const { rows } = await pool.query(SQL, [
          req.headers['x-service-tenantid'],
          b.salutation ?? null,
          b.title ?? null,
          b.firstname ?? null,
          b.lastname ?? null,
          b.birthday?.birthday ?? null,
          b.birthday?.considerBirthYear ?? null,
          JSON.stringify(b.importantDates ?? []),
          JSON.stringify(b.socialMedias ?? []),
          b.customerNumber ?? null,
          b.employeeStatus ?? null,
          b.employeeNumber ?? null,
          b.lifecycle?.lifecycleId ?? null,
          req.headers['x-integration-name'],
        ]);
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            data: rows[0],
            message: null,
            metaData: { totalResults: 1, responseTimeStamp: new Date().toISOString() },
            statusCode: 201,
          }),
        );
      } catch (err) {
        res.writeHead(500);
        res.end(String(err));
      }
    });
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    name: 'raw',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
