// OAuth end to end for an outside agent, in one protocol era (argv[2]): a standard MCP client's own OAuth support
// (the SDK's ClientCredentialsProvider: client_credentials with client_secret_basic) starts with no token, follows
// the gateway's 401 to its protected-resource metadata (RFC 9728), the authorization server's metadata (RFC 8414),
// gets a token for the gateway's resource (RFC 8707) and calls tools with it. The ceiling comes from the
// authorization server's approval of the client, never from the client.
// Env: MCP_URL, OAUTH_ISSUER (the authorization server the gateway names), OAUTH_SCOPE.
// Exits non-zero on the first failed expectation; prints every request the client made.
import assert from 'node:assert/strict';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport,
  ClientCredentialsProvider as ModernCredentials } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider as LegacyCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { call, describe } from './lib.mjs';

const era = process.argv[2];
assert.ok(['modern', 'handshake'].includes(era), `era must be modern or handshake, got ${era}`);
const { MCP_URL: url, OAUTH_ISSUER: issuer, OAUTH_SCOPE: scope } = process.env;

async function connect(client, secret = 'local-secret') {
  const seen = [];
  const recording = async (input, init) => {
    const response = await fetch(input, init);
    seen.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)} -> ${response.status}`);
    return response;
  };
  const options = { clientId: client, clientSecret: secret, scope, expectedIssuer: issuer };
  const authProvider = era === 'modern' ? new ModernCredentials(options) : new LegacyCredentials(options);
  const info = { name: `gatehouse-oauth-${era}`, version: '1.0.0' };
  const mcp = era === 'modern'
    ? new ModernClient(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new LegacyClient(info);
  const Transport = era === 'modern' ? ModernTransport : LegacyTransport;
  await mcp.connect(new Transport(new URL(url), { authProvider, fetch: recording }));
  return { client: mcp, era, seen, authProvider };
}

const o1 = await connect('o1');
for (const line of o1.seen) console.log(`[${era}] o1 ${line}`);
const path = (line) => new URL(line.split(' ')[1]).pathname;
const first401 = o1.seen.findIndex((l) => path(l) === '/mcp' && l.endsWith('-> 401'));
const metadata = o1.seen.findIndex((l) => path(l).startsWith('/.well-known/oauth-protected-resource') && l.endsWith('200'));
const asMetadata = o1.seen.findIndex((l) => l.split(' ')[1].startsWith(new URL(issuer).origin)
  && path(l).includes('/.well-known/') && l.endsWith('200'));
const token = o1.seen.findIndex((l) => l.split(' ')[1] === `${issuer}/token` && l.endsWith('200'));
assert.ok(first401 >= 0 && first401 < metadata && metadata < asMetadata && asMetadata < token,
  `discovery order 401 -> resource metadata -> authorization-server metadata -> token: ${o1.seen.join('\n')}`);
assert.equal(o1.authProvider.tokens().token_type.toLowerCase(), 'bearer');

// The token's claims as the authorization server set them: audience = this resource, ceiling approved for o1.
const claims = JSON.parse(Buffer.from(o1.authProvider.tokens().access_token.split('.')[1], 'base64url'));
assert.equal(claims.iss, issuer);
assert.deepEqual([claims.aud].flat(), [url]);
assert.equal(claims.t3_mode_ceiling, 'read-only');

const read = await call(o1, 't3_thread_list', {});
console.log(`[${era}] ${describe('o1 (oauth, read-only)', 't3_thread_list', read)}`);
assert.equal(read.denied, false, JSON.stringify(read.structured));
const write = await call(o1, 'wiki_write', { path: 'page.md', content: 'x' });
console.log(`[${era}] ${describe('o1 (oauth, read-only)', 'wiki_write', write)}`);
assert.ok(write.denied && write.codes.includes('read_only_client'), JSON.stringify(write.structured));
const names = (await o1.client.listTools()).tools.map((t) => t.name);
assert.ok(names.includes('t3_thread_list') && !names.includes('wiki_write'), names.join(' '));

// A client the authorization server did not approve gets a token without a ceiling: the gateway refuses it.
await assert.rejects(connect('stranger'), (error) => {
  console.log(`[${era}] stranger refused: ${error.message.slice(0, 120)}`);
  return true;
});

await o1.client.close();
console.log(`[${era}] oauth expectations met`);
