import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Spec files, test support folders, the testing library and the end-to-end projects. */
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  '**/test/**/*.ts',
  '**/__fixtures__/**/*.ts',
  'libs/testing/**/*.ts',
  'apps/*-e2e/**/*.ts',
];

/** Prisma and the PostgreSQL driver: the gateway has no database. */
const DATABASE_PACKAGES = ['@prisma/*', 'prisma', 'prisma-migrate', 'pg', '@crm/persistence'];

/**
 * Layering: apps import libs only (never another app), libs never import apps, imports across
 * projects go through the @crm/* alias. Production code never imports test support
 * (type:testing, i.e. @crm/testing); specs and test support may. The gateway (scope:gateway)
 * uses shared libs only, never persistence or Prisma; services (scope:service) also use the
 * service libs (persistence, settings-lists, storage); shared libs use shared libs only.
 */
function moduleBoundaries({ tests }) {
  const libs = tests ? ['type:lib', 'type:testing'] : ['type:lib'];
  return [
    'error',
    {
      allow: [],
      enforceBuildableLibDependency: false,
      depConstraints: [
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: libs },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: libs },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
        {
          sourceTag: 'scope:gateway',
          onlyDependOnLibsWithTags: ['scope:shared'],
          bannedExternalImports: DATABASE_PACKAGES,
        },
        { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared', 'scope:service'] },
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      ],
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'tmp/**',
      'coverage/**',
      '.nx/**',
      'apps/*/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      // Architecture (README "Layering"), from the tags in each project.json.
      '@nx/enforce-module-boundaries': moduleBoundaries({ tests: false }),
      // Test support in a `test/` folder of a project is for specs only (build.mjs leaves it out).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(test|__fixtures__)/',
              message: 'test support (a test/ folder) is imported by spec files only',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-console': 'off',
    },
  },
  {
    // Tests and test support may use @crm/testing and test/ folders; the scope rules still hold.
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ tests: true }),
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // response bodies in tests are checked field by field with expect()
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        global: 'writable',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
