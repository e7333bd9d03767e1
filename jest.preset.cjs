// Shared jest settings: swc with decorator metadata (the build's options) and the @crm/* aliases.
const { swcOptions } = require('./tools/swc-options.cjs');
const { compilerOptions } = require('./tsconfig.base.json');
const path = require('node:path');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias}$`,
    path.join(__dirname, target),
  ]),
);

/** @param {string} projectRoot @param {'unit'|'int'|'e2e'} tier */
function project(projectRoot, tier) {
  const name = path.basename(projectRoot);
  const match = { unit: '**/*.spec.ts', int: '**/*.int-spec.ts', e2e: '**/*.e2e-spec.ts' }[tier];
  return {
    displayName: `${name}:${tier}`,
    rootDir: path.join(__dirname, projectRoot),
    testEnvironment: 'node',
    setupFiles: ['reflect-metadata', path.join(__dirname, 'tools/jest-worker-env.cjs')],
    testMatch: [`<rootDir>/${match}`],
    transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions(), swcrc: false }] },
    moduleNameMapper,
    moduleFileExtensions: ['ts', 'js', 'json'],
  };
}

module.exports = { project, moduleNameMapper };
