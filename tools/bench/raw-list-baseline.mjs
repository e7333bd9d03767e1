// The raw baseline of the list bench: node:http + pg answering GET /v1/crm/people?page=&pageSize=
// with the same page query the service runs for sort=lastname (ORDER BY lastname, id with LIMIT and
// OFFSET, plus the count of the tenant), in the envelope. No framework, no validation, no joins
// for cards, tags or history: the floor the service is measured against.
import http from 'node:http';
import pg from 'pg';

const PAGE_SQL = `SELECT * FROM "Person" WHERE "tenantId" = $1 ORDER BY "lastname" ASC, "id" ASC LIMIT $2 OFFSET $3`;
const COUNT_SQL = `SELECT count(*)::int AS n FROM "Person" WHERE "tenantId" = $1`;

export async function startRawListBaseline(port, connectionString, poolSize = 10) {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://raw');
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const size = Math.min(500, Math.max(1, Number(url.searchParams.get('pageSize') ?? 50)));
      const tenant = req.headers['x-service-tenantid'];
      const [rows, count] = await Promise.all([
        pool.query(PAGE_SQL, [tenant, size, (page - 1) * size]),
        pool.query(COUNT_SQL, [tenant]),
      ]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: rows.rows,
          message: null,
          metaData: { totalResults: count.rows[0].n, responseTimeStamp: new Date().toISOString() },
          statusCode: 200,
        }),
      );
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    name: 'raw-list',
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}
