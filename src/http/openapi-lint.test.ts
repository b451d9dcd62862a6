import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';

const t = testAppForTests();
const configPath = join(fileURLToPath(new URL('../..', import.meta.url)), 'redocly.yaml');

/** Redocly's problems with a document under redocly.yaml, one line each: severity, rule, where, what. */
async function lint(document: object): Promise<string[]> {
  const config = await loadConfig({ configPath });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

it('passes Redocly’s recommended rules, with operationIds, 4xx answers and valid examples required', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const problems = await lint(res.json());
  console.log(problems.length ? problems.join('\n') : 'Redocly: no problems');
  expect(problems.filter((p) => p.startsWith('error'))).toEqual([]);
});
