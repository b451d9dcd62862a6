// Scratch: POST /events vs POST /contacts on one server, role and flows from argv, optional --cpu-prof.
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createAutomation } from '../dist/modules/automation/save-automation.js';
import { cleanupAll, measure, seedDatabase, start, stop } from './lib.mjs';

const [kind = 'postgres', role = 'all', flows = '1', prof = ''] = process.argv.slice(2);
const SECRET = '1'.repeat(64);
const secrets = new SecretBox(Buffer.from(SECRET, 'hex'));
const randomPhone = () => `+9198${String(Math.floor(Math.random() * 100_000)).padStart(8, '0')}`;
const load = { connections: 20, duration: Number(process.env.BENCH_SECONDS ?? 8), warmup: 2 };
try {
  const seeded = await seedDatabase(kind, { adminUrl: 'postgres://postgres@127.0.0.1:5432/test', secret: SECRET, keys: 200, preload: 20_000, phonePrefix: '9198' });
  const env = await seeded.clone('probe');
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  for (let i = 0; i < Number(flows); i++)
    await createAutomation({ db, secrets }, seeded.workspaceId, { name: `f${i}`, trigger: { type: 'event', event: 'bench' }, steps: [{ id: 'tag', type: 'add_tag', tag: 'bench' }] }, { publish: true });
  await db.close();
  const server = await start(['dist/cli/main.js', 'serve', ...(role === 'all' ? [] : ['--role', role])], { ...env, PARLEY_SECRET_KEY: SECRET, PORT: '4400', LOG_LEVEL: 'warn' }, /Parley is running/, { nodeOptions: prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [] });
  let k = 0;
  const auth = () => `Bearer ${seeded.keys[k++ % seeded.keys.length]}`;
  for (const path of ['contacts', 'events', 'contacts', 'events']) {
    const r = await measure(`http://127.0.0.1:4400/api/v1/${path}`, { ...load, method: 'POST', makeRequest: (req) => ({ ...req, headers: { 'content-type': 'application/json', authorization: auth() }, body: JSON.stringify(path === 'contacts' ? { phone: randomPhone(), tags: ['bench'] } : { phone: randomPhone(), event: 'bench' }) }) });
    console.log(`${kind} ${role} flows=${flows} ${path}: ${r.rps} req/s p50 ${r.p50} p99 ${r.p99} failed ${r.failed}`);
  }
  await stop(server);
} finally {
  await cleanupAll();
}
