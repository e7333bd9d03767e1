// One swc configuration for the build and for jest, so tests run the code as it ships.
// Decorator metadata must be emitted: NestJS and @nestjs/graphql read parameter types from it.
const path = require('node:path');
const { compilerOptions } = require('../tsconfig.base.json');

const root = path.resolve(__dirname, '..');

/** @param {{ rewritePaths?: boolean }} [opts] */
function swcOptions(opts = {}) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      ...(opts.rewritePaths ? { baseUrl: root, paths: compilerOptions.paths } : {}),
    },
    module: { type: 'commonjs' },
    sourceMaps: true,
  };
}

module.exports = { swcOptions, root };
