// Tool calls through /mcp with a real MCP client, for tests that drive the gateway from elsewhere (the console's
// browser tests): `node call.mjs <era> <tool> '<arguments JSON>' [<tool> '<arguments JSON>' ...]` with MCP_URL and
// TOKEN in the environment, the calls one after another on one connection. Prints one JSON line per call
// {denied, codes, kind, isError, text, decisionId}; a connection the gateway refuses prints {connectError}.
import { connect, call, close } from './lib.mjs';

const [era, ...calls] = process.argv.slice(2);
let connection;
try {
  connection = await connect(era, process.env.MCP_URL, process.env.TOKEN);
} catch (error) {
  console.log(JSON.stringify({ connectError: String(error?.message ?? error) }));
  process.exit(0);
}
for (let i = 0; i + 1 < calls.length; i += 2) {
  const outcome = await call(connection, calls[i], JSON.parse(calls[i + 1]));
  console.log(JSON.stringify({ denied: outcome.denied, codes: outcome.codes, kind: outcome.kind,
    isError: outcome.isError, text: outcome.text, decisionId: outcome.decisionId }));
}
await close(connection);
