import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import ts from 'typescript';
import { loadConfig } from '@crm/config';
import { GatewayConfig, graphqlDisclosure } from '../config';
import { clarifyError, GraphqlLimits, limitRules, limitsOf } from './graphql-limits';
import { SUPERGRAPH_FILE } from './supergraph.service';

const ROOT = path.resolve(__dirname, '../../../..');
const schema = buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });
const defaults = limitsOf(loadConfig(GatewayConfig, { ADMIN_TOKEN: 'a-long-enough-admin-token' }));

/** Every GraphQL document written in the repository's tests and benchmarks. */
function documentsInTheRepository(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', 'apps/**/*spec.ts', 'tools/bench/**/*.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const found: { file: string; text: string }[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(path.join(ROOT, file), 'utf8'),
      ts.ScriptTarget.Latest,
    );
    const visit = (node: ts.Node) => {
      let text: string | null = null;
      if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) text = node.text;
      else if (ts.isTemplateExpression(node))
        text = node.head.text + node.templateSpans.map((s) => `X${s.literal.text}`).join('');
      if (text && /^\s*(query|mutation)\b|^\s*\{\s*\w+[\s({]/.test(text)) {
        try {
          parse(text);
          found.push({ file, text });
        } catch {
          /* not GraphQL */
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the default limits', () => {
  it('are 10 levels, 15 aliases, 1000 tokens, cost 2000, 20 directives', () => {
    expect(defaults).toEqual({ depth: 10, aliases: 15, tokens: 1000, cost: 2000, directives: 20 });
  });

  it('let every query of the test suites through with 30% of each limit to spare', () => {
    // the deepest (a company's manager's cards' company) is 7 levels; the rest are far below
    const tighter = Object.fromEntries(
      Object.entries(defaults).map(([name, max]) => [name, Math.floor(max * 0.7)]),
    ) as unknown as GraphqlLimits;
    const docs = documentsInTheRepository();
    expect(docs.length).toBeGreaterThan(100);
    const refused = docs.flatMap(({ file, text }) => {
      let errors;
      try {
        errors = validate(schema, parse(text, { maxTokens: tighter.tokens }), limitRules(tighter));
      } catch (err) {
        errors = [err as Error];
      }
      return errors.map((e) => `${file}: ${e.message} in ${text}`);
    });
    expect(refused).toEqual([]);
  });
});

describe('limitRules', () => {
  const limits: GraphqlLimits = { depth: 3, aliases: 1, tokens: 100, cost: 20, directives: 1 };
  const check = (query: string) => validate(schema, parse(query), limitRules(limits));

  it('reports each limit as a validation error naming it and the figures', () => {
    expect(check('{ person(id: "1") { cards { company { id } } } }')[0]).toMatchObject({
      message: 'Query depth limit of 3 exceeded, found 4.',
      extensions: { limit: 'depth', max: 3 },
    });
    expect(check('{ a: person(id: "1") { id } b: person(id: "2") { id } }')[0]).toMatchObject({
      message: 'Aliases limit of 1 exceeded, found 2.',
      extensions: { limit: 'aliases', max: 1 },
    });
    expect(
      check('{ person(id: "1") { id @include(if: true) firstname @skip(if: false) } }')[0],
    ).toMatchObject({
      message: 'Directives limit of 1 exceeded, found 2.',
      extensions: { limit: 'directives', max: 1 },
    });
    expect(check(`{ person(id: "1") { ${'id '.repeat(20)}} }`)[0]).toMatchObject({
      message: 'Query Cost limit of 20 exceeded, found 32.',
      extensions: { limit: 'cost', max: 20 },
    });
  });

  it('lets an operation within every limit through', () => {
    expect(check('{ a: person(id: "1") { cards { id @include(if: true) } } }')).toEqual([]);
  });
});

describe('clarifyError', () => {
  const on = { suggestions: true };
  const off = { suggestions: false };

  it("names the token limit instead of graphql-js's parse message", () => {
    expect(
      clarifyError(
        {
          message: 'Syntax Error: Document contains more that 1000 tokens. Parsing aborted.',
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        },
        on,
      ),
    ).toEqual({
      message: 'Token limit of 1000 exceeded: the document has more than 1000 tokens.',
      extensions: { code: 'GRAPHQL_PARSE_FAILED', limit: 'tokens', max: 1000 },
    });
  });

  it('drops "Did you mean" only when suggestions are off', () => {
    const error = {
      message: 'Cannot query field "nam" on type "Person". Did you mean "name" or "note"?',
    };
    expect(clarifyError(error, on)).toBe(error);
    expect(clarifyError(error, off).message).toBe('Cannot query field "nam" on type "Person".');
    expect(
      clarifyError(
        {
          message:
            'Cannot query field "x" on type "Node". Did you mean to use an inline fragment on "Person"?',
        },
        off,
      ).message,
    ).toBe('Cannot query field "x" on type "Node".');
  });
});

describe('graphqlDisclosure', () => {
  const config = (env: Record<string, string>) =>
    loadConfig(GatewayConfig, {
      // random-looking and 32 characters: production refuses anything weaker
      ADMIN_TOKEN: 'h7Qe2Lk9ZxW4pR1vBn6Ys3Tc8Mu0JdFa',
      INTERNAL_TOKEN: 'Vq3x8KpL2mZt9RwYc4NbFh6JdGs1AeU0',
      ...env,
    });

  it('is open outside production and closed in production unless configured', () => {
    expect(graphqlDisclosure(config({ NODE_ENV: 'development' }))).toEqual({
      introspection: true,
      suggestions: true,
    });
    expect(graphqlDisclosure(config({ NODE_ENV: 'production' }))).toEqual({
      introspection: false,
      suggestions: false,
    });
    expect(
      graphqlDisclosure(
        config({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true', GRAPHQL_SUGGESTIONS: '1' }),
      ),
    ).toEqual({ introspection: true, suggestions: true });
    expect(
      graphqlDisclosure(config({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' })),
    ).toEqual({ introspection: false, suggestions: true });
  });
});
