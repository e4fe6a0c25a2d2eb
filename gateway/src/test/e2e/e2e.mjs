// End-to-end scenario against a running gateway + local-services, in one protocol era (argv[2]).
// Env: MCP_URL, ADMIN_URL, ADMIN_CREDENTIAL, A1_TOKEN, A2_TOKEN, A1_ENDED_TOKEN, O1_TOKEN (read-only JWT),
//      O2_TOKEN (full-access JWT), MINIMAL_ARGUMENTS (path of a JSON file: tool → example arguments of its input schema).
// Exits non-zero on the first failed expectation; prints every call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { call, close, connect, describe, listNames } from './lib.mjs';

const era = process.argv[2];
assert.ok(['modern', 'handshake'].includes(era), `era must be modern or handshake, got ${era}`);
const env = process.env;
const url = env.MCP_URL;
const minimal = JSON.parse(readFileSync(env.MINIMAL_ARGUMENTS, 'utf8'));

async function admin(method, path, body) {
  const response = await fetch(`${env.ADMIN_URL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${env.ADMIN_CREDENTIAL}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method} ${path}`);
}

const a1Settings = (projectEnabled) => ({
  browserAccess: true,
  project: { enabled: projectEnabled, projectServiceProjectId: 'ps-demo' },
  wiki: { read: true, write: true },
});

async function step(who, connection, tool, args, meta) {
  const outcome = await call(connection, tool, args, meta);
  console.log(`[${era}] ${describe(who, tool, outcome)}`);
  return outcome;
}

function expectDenied(outcome, code) {
  assert.equal(outcome.denied, true, `expected a denial ${code}, got ${JSON.stringify(outcome.structured)}`);
  assert.ok(outcome.codes.includes(code), `expected ${code} in ${outcome.codes}`);
  assert.match(outcome.structured.decisionId, /^[0-9a-f-]{36}$/);
}

function expectAllowed(outcome) {
  assert.equal(outcome.denied, false, `expected allowed, got ${JSON.stringify(outcome.structured)}`);
}

const a1 = await connect(era, url, env.A1_TOKEN, {
  // Identity headers a client might send: ignored, identity comes from the token alone.
  'X-Agent-Id': 'a2', 'X-Project-Id': 'p2', 'X-Client-Id': 'c2', 'X-Forwarded-User': 'a2', 'X-Allowed-Tools': '*',
});

// Identity: arguments naming identity keys are refused; headers and _meta keys are ignored.
expectDenied(await step('a1', a1, 'wiki_read', { path: 'page.md', agentId: 'a2' }), 'identity_argument');
expectDenied(await step('a1', a1, 'wiki_read', { path: 'page.md', root: 'agents/a2' }), 'identity_argument');
const own = await step('a1', a1, 'wiki_read', { path: 'page.md' }, { agentId: 'a2', projectId: 'p2' });
expectAllowed(own);
assert.match(JSON.stringify(own.structured), /Notes of agent a1/);
assert.doesNotMatch(JSON.stringify(own.structured), /A2-SECRET|agent a2/);

// Unknown and look-alike names go through the policy: unknown_tool, and no backend call.
expectDenied(await step('a1', a1, 'no_such_tool', {}), 'unknown_tool');
expectDenied(await step('a1', a1, 'WIKI_READ', { path: 'page.md' }), 'unknown_tool');
// Arguments that are not an object, and unknown members, are schema denials.
expectDenied(await step('a1', a1, 'wiki_read', { path: 'page.md', recursive: true }), 'schema');

// Wiki in the agent's subtree: write, read back, list, search.
const written = await step('a1', a1, 'wiki_write', { path: `notes/e2e-${era}.md`, content: `hello from ${era}` });
expectAllowed(written);
assert.equal(written.isError, false, JSON.stringify(written.structured));
const readBack = await step('a1', a1, 'wiki_read', { path: `notes/e2e-${era}.md` });
assert.match(JSON.stringify(readBack.structured), new RegExp(`hello from ${era}`));
expectAllowed(await step('a1', a1, 'wiki_list', { path: '.' }));
expectAllowed(await step('a1', a1, 'wiki_search', { query: 'hello' }));

// Project work: list, then submit one run at its current revisions.
const work = await step('a1', a1, 'project_work_list', {});
expectAllowed(work);
assert.equal(work.isError, false, JSON.stringify(work.structured));
const runs = JSON.stringify(work.structured);
assert.match(runs, /run-101/);
assert.doesNotMatch(runs, /executorRef|workspaceRef|exec-a1/);
const submitted = await step('a1', a1, 'project_work_submit',
  { runId: 'run-101', runRevision: 'run:4', assignmentRevision: 'position:2', result: { summary: 'changelog written' } });
expectAllowed(submitted);
assert.equal(submitted.isError, false, JSON.stringify(submitted.structured));

// A capability turned off and on again applies to the next call of the same live session.
expectAllowed(await step('a1', a1, 'project_work_list', {}));
await admin('PUT', '/admin/agents/a1', a1Settings(false));
expectDenied(await step('a1', a1, 'project_work_list', {}), 'capability_missing');
await admin('PUT', '/admin/agents/a1', a1Settings(true));
expectAllowed(await step('a1', a1, 'project_work_list', {}));

// a2 (approval-required/plan) cannot reach a1's page, and launches only within its modes.
const a2 = await connect(era, url, env.A2_TOKEN);
expectDenied(await step('a2', a2, 'wiki_read', { path: '../a1/page.md' }), 'path_invalid');
const launched = await step('a2', a2, 't3_thread_launch', { projectId: 'demo', prompt: 'plan the release' });
expectAllowed(launched);
expectDenied(await step('a2', a2, 't3_thread_launch',
  { projectId: 'demo', prompt: 'go', runtimeMode: 'full-access' }), 'runtime_mode_escalation_denied');
expectDenied(await step('a2', a2, 't3_thread_launch',
  { projectId: 'demo', prompt: 'go', interactionMode: 'default' }), 'interaction_mode_escalation_denied');

// A thread whose run ended: reads work, writes fail with parent_not_active.
const ended = await connect(era, url, env.A1_ENDED_TOKEN);
expectAllowed(await step('a1@t3 (ended)', ended, 'wiki_read', { path: 'page.md' }));
expectDenied(await step('a1@t3 (ended)', ended, 'wiki_write', { path: 'page.md', content: 'x' }), 'parent_not_active');

// A read-only outside agent.
const o1 = await connect(era, url, env.O1_TOKEN);
expectAllowed(await step('o1 (read-only)', o1, 't3_thread_list', {}));
expectDenied(await step('o1 (read-only)', o1, 'wiki_write', { path: 'page.md', content: 'x' }), 'read_only_client');
expectDenied(await step('o1 (read-only)', o1, 't3_thread_send', { threadId: 't2', message: 'x' }), 'read_only_client');

// An outside agent approved full-access, narrowed per request by T3-Mode-Limit.
const o2Narrow = await connect(era, url, env.O2_TOKEN, { 'T3-Mode-Limit': 'approval-required/plan' });
expectDenied(await step('o2 (limit a-r/plan)', o2Narrow, 't3_thread_launch',
  { projectId: 'demo', prompt: 'go', runtimeMode: 'auto' }), 'runtime_mode_escalation_denied');
const o2 = await connect(era, url, env.O2_TOKEN);
expectAllowed(await step('o2 (full-access)', o2, 't3_thread_launch',
  { projectId: 'demo', prompt: 'go', runtimeMode: 'auto' }));
const malformed = await fetch(url, {
  method: 'POST',
  headers: { Authorization: `Bearer ${env.O2_TOKEN}`, 'T3-Mode-Limit': 'everything', 'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
});
assert.equal(malformed.status, 400);

// For each caller kind, tools/list equals the set of tools its calls are allowed (not denied). Interrupts run
// last: they end runs that later calls of the same sweep rely on.
const sweep = [['o1 (read-only)', o1], ['a1@t3 (ended)', ended], ['a2', a2], ['o2 (limit a-r/plan)', o2Narrow],
  ['a1', a1]];
const order = Object.keys(minimal).sort((x, y) => (x === 't3_thread_interrupt') - (y === 't3_thread_interrupt'));
for (const [who, connection] of sweep) {
  const listed = await listNames(connection);
  const allowed = [];
  for (const tool of order) {
    const outcome = await call(connection, tool, minimal[tool]);
    if (!outcome.denied) allowed.push(tool);
  }
  allowed.sort();
  console.log(`[${era}] ${who.padEnd(22)} tools/list = allowed calls: ${listed.join(' ')}`);
  assert.deepEqual(listed, allowed, `${who}: tools/list differs from the allowed calls`);
}

for (const connection of [a1, a2, ended, o1, o2Narrow, o2]) await close(connection);
console.log(`[${era}] all expectations met`);
