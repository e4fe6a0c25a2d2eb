// Real MCP clients of both protocol eras, connected to a Gatehouse /mcp endpoint with a bearer credential.
//   modern:    @modelcontextprotocol/client 2.x pinned to 2026-07-28 (server/discover, no session)
//   handshake: @modelcontextprotocol/sdk 1.x (initialize handshake, 2025-11-25, Mcp-Session-Id)
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const ERAS = ['modern', 'handshake'];

/** Connects a client of `era` to `url`, presenting `token` and any `headers` on every request. */
export async function connect(era, url, token, headers = {}) {
  const requestInit = { headers: { Authorization: `Bearer ${token}`, ...headers } };
  const info = { name: `gatehouse-e2e-${era}`, version: '1.0.0' };
  const client = era === 'modern'
    ? new ModernClient(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new LegacyClient(info);
  const transport = era === 'modern'
    ? new ModernTransport(new URL(url), { requestInit })
    : new LegacyTransport(new URL(url), { requestInit });
  await client.connect(transport);
  return { client, transport, era };
}

/** The names tools/list shows, sorted. */
export async function listNames(connection) {
  const result = await connection.client.listTools();
  return result.tools.map((t) => t.name).sort();
}

/**
 * Calls a tool; returns {denied, codes, kind, structured, text, isError, decisionId}. Never throws for tool errors.
 * The decision id is the result's _meta["dev.gatehouse/decisionId"], which every decided call carries (allowed ones
 * too, whose structured content is the tool's own).
 */
export async function call(connection, name, args, meta) {
  const params = { name, arguments: args };
  if (meta) params._meta = meta;
  const result = await connection.client.callTool(params);
  const structured = result.structuredContent ?? {};
  const text = (result.content ?? []).map((c) => c.text ?? '').join('');
  return {
    isError: result.isError === true,
    denied: structured.kind === 'denied',
    codes: (structured.reasons ?? []).map((r) => r.code),
    kind: structured.kind,
    structured,
    text,
    decisionId: result._meta?.['dev.gatehouse/decisionId'],
  };
}

export async function close(connection) {
  try {
    if (connection.era === 'handshake') await connection.transport.terminateSession();
  } catch { /* the session may already be gone */ }
  await connection.client.close();
}

/** One line per call: who, tool, allowed or denied with reason codes. */
export function describe(who, tool, outcome) {
  const verdict = outcome.denied ? `DENIED ${outcome.codes.join(',')}`
    : outcome.isError ? `ALLOWED -> service error ${outcome.kind}` : 'ALLOWED';
  return `${who.padEnd(22)} ${tool.padEnd(34)} ${verdict}`;
}
