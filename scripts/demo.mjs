// The demo session of scripts/demo.sh: the same questions asked by three callers, in one or both protocol eras.
// Env (written by scripts/run.sh): MCP_URL, A1_TOKEN, A2_TOKEN, O1_TOKEN.
import { call, close, connect, describe, ERAS, listNames } from '../gateway/src/test/e2e/lib.mjs';

const { MCP_URL: url, A1_TOKEN, A2_TOKEN, O1_TOKEN } = process.env;
const eras = process.argv[2] === 'both' || !process.argv[2] ? ERAS : [process.argv[2]];

// A write without baseRevision creates a page, so each run and era writes a page of its own (a rerun is no conflict).
const run = Date.now().toString(36);
const script = (era) => [
  ['a1', 'wiki_read', { path: 'page.md' }],
  ['a1', 'wiki_write', { path: `demo/hello-${run}-${era}.md`, content: 'Hello from the demo' }],
  ['a1', 'wiki_read', { path: 'page.md', agentId: 'a2' }],
  ['a1', 'project_work_list', {}],
  ['a1', 't3_thread_send', { threadId: 't2', message: 'status?' }],
  ['a1', 'not_a_tool', {}],
  ['a2', 'wiki_read', { path: '../a1/page.md' }],
  ['a2', 't3_thread_launch', { projectId: 'demo', prompt: 'plan the release' }],
  ['a2', 't3_thread_launch', { projectId: 'demo', prompt: 'ship it', runtimeMode: 'full-access' }],
  ['a2', 't3_thread_send', { threadId: 't1', message: 'hi' }],
  ['o1', 't3_thread_list', {}],
  ['o1', 'wiki_write', { path: 'x.md', content: 'x' }],
];

// What went wrong, in one line: a trace of the SDK's internals helps nobody running the demo.
function explain(error) {
  const text = `${error?.message ?? error} ${error?.cause?.code ?? ''}`;
  if (/ECONNREFUSED|fetch failed|ENOTFOUND|socket hang up/.test(text)) {
    return `the gateway does not answer at ${url}: start it with make run (in another terminal)`;
  }
  if (/\b401\b|unauthori[sz]ed|invalid_token/i.test(text)) {
    return 'the gateway refused a demo token (401): start make run again, which mints new ones';
  }
  return `the demo stopped: ${text.split('\n')[0].trim()}`;
}

try {
  await demo();
} catch (error) {
  console.error(`demo: ${explain(error)}`);
  process.exit(1);
}

async function demo() {
  for (const era of eras) {
    console.log(`\n=== ${era === 'modern' ? 'MCP 2026-07-28 (stateless)' : 'MCP 2025-11-25 (handshake)'} ===`);
    const clients = {
      a1: await connect(era, url, A1_TOKEN),
      a2: await connect(era, url, A2_TOKEN),
      o1: await connect(era, url, O1_TOKEN),
    };
    for (const [who, connection] of Object.entries(clients)) {
      console.log(`${who.padEnd(22)} tools/list: ${(await listNames(connection)).join(' ')}`);
    }
    for (const [who, tool, args] of script(era)) {
      const outcome = await call(clients[who], tool, args);
      const reasons = outcome.denied ? `  ${outcome.structured.reasons.map((r) => r.message).join('; ')}` : '';
      console.log(`${describe(who, tool, outcome)}${reasons}`);
    }
    for (const connection of Object.values(clients)) await close(connection);
  }
}
