// Scenario 1: GET /health/live of crm-people directly vs a bare node:http server answering the
// same JSON: what the framework costs on the lightest request.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAll, freePort, row } from '../measure.mjs';
import { startRawBaseline } from '../raw-baseline.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function healthScenario({ stack }) {
  const scenario = '1 GET /health/live';
  const raw = await startRawBaseline(
    'health',
    await freePort(),
    path.join(here, '../raw/health.mjs'),
  );
  try {
    const target = (name, url) => ({ name, url, path: '/health/live', headers: {} });
    const [bare, direct] = await benchAll(scenario, [
      { t: target('bare node:http', raw.url) },
      { t: target('direct crm-people', stack.peopleUrl) },
    ]);
    return [row(scenario, bare), row(scenario, direct, bare, 0.4)];
  } finally {
    await raw.stop();
  }
}
