// Every project's tests in tiers: unit (*.spec.ts), integration (*.int-spec.ts, real PostgreSQL
// and NATS), end-to-end (*.e2e-spec.ts, through the gateway over HTTP). JEST_TIERS and
// JEST_PROJECTS narrow the run (tools/test.mjs sets them).
const fs = require('node:fs');
const path = require('node:path');
const { project } = require('./jest.preset.cjs');

const tiers = (process.env.JEST_TIERS ?? 'unit,int,e2e').split(',');
const only = process.env.JEST_PROJECTS ? process.env.JEST_PROJECTS.split(',') : null;
const roots = ['apps', 'libs'].flatMap((d) =>
  fs
    .readdirSync(path.join(__dirname, d))
    .map((p) => `${d}/${p}`)
    .filter((p) => fs.existsSync(path.join(__dirname, p, 'project.json'))),
);

module.exports = {
  projects: roots
    .filter((r) => !only || only.includes(path.basename(r)))
    .flatMap((r) => tiers.map((t) => project(r, t))),
};
