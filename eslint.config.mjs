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

/** An import of a test support folder: spec files only. */
const TEST_SUPPORT_IMPORT = {
  regex: '(^|/)(test|__fixtures__)/',
  message: 'test support (a test/ folder) is imported by spec files only',
};

/**
 * One door per table: in a service, only its repositories (`*.repository.ts`) and its database
 * folder (the PrismaService, the readiness check) hold the Prisma client or write SQL. Services
 * open transactions through a repository's `transaction()` and pass its `tx` to repository
 * methods; Prisma's types (`Prisma.TransactionClient`, input types, `Prisma.DbNull`) stay allowed.
 */
const DOOR_PER_TABLE_APPS = ['bookings-invitations'];
const REPOSITORY_ONLY = 'only a *.repository.ts (or src/database/) uses the Prisma client or SQL';
const DATABASE_ACCESS_SYNTAX = [
  {
    selector:
      'MemberExpression[property.name=/^\\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction|runCommandRaw)$/]',
    message: `${REPOSITORY_ONLY}: raw SQL and transactions go through a repository`,
  },
  {
    selector: 'MemberExpression[property.name="prisma"]',
    message: `${REPOSITORY_ONLY}: no repository's or service's \`prisma\` client outside repositories`,
  },
  {
    selector: 'MemberExpression[object.name="Prisma"][property.name=/^(sql|join|raw|empty)$/]',
    message: `${REPOSITORY_ONLY}: Prisma.sql and friends build SQL`,
  },
  {
    selector:
      'MemberExpression[object.type="MemberExpression"][object.object.name=/^(tx|lockTx|db)$/]',
    message: `${REPOSITORY_ONLY}: a table is read or written through its repository, not \`tx.<model>\``,
  },
];
const DATABASE_ACCESS_IMPORTS = [
  {
    group: ['**/database/prisma.service'],
    message: `${REPOSITORY_ONLY}: inject the table's repository, not PrismaService`,
  },
  {
    group: ['**/generated/prisma/client'],
    importNames: ['PrismaClient'],
    message: `${REPOSITORY_ONLY}: no PrismaClient outside repositories`,
  },
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
      'libs/api-client/src/schema.ts',
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
      'no-restricted-imports': ['error', { patterns: [TEST_SUPPORT_IMPORT] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-console': 'off',
    },
  },
  {
    // One door per table (see DATABASE_ACCESS_SYNTAX): services' sources outside repositories.
    // Only the services that pass it so far (the others: add them once they do).
    files: DOOR_PER_TABLE_APPS.map((app) => `apps/${app}/src/**/*.ts`),
    ignores: ['apps/*/src/**/*.repository.ts', 'apps/*/src/database/**', ...TEST_FILES],
    rules: {
      'no-restricted-syntax': ['error', ...DATABASE_ACCESS_SYNTAX],
      'no-restricted-imports': [
        'error',
        { patterns: [TEST_SUPPORT_IMPORT, ...DATABASE_ACCESS_IMPORTS] },
      ],
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
