// One tool call through /mcp with a real MCP client, for tests that drive the gateway from elsewhere (the console's
// browser test): `node call.mjs <era> <tool> '<arguments JSON>'` with MCP_URL and TOKEN in the environment. Prints
// one JSON line {denied, codes, kind, isError, text, decisionId}; a connection the gateway refuses prints {connectError}.
import { connect, call, close } from './lib.mjs';

const [era, tool, args] = process.argv.slice(2);
let connection;
try {
  connection = await connect(era, process.env.MCP_URL, process.env.TOKEN);
} catch (error) {
  console.log(JSON.stringify({ connectError: String(error?.message ?? error) }));
  process.exit(0);
}
const outcome = await call(connection, tool, JSON.parse(args));
console.log(JSON.stringify({ denied: outcome.denied, codes: outcome.codes, kind: outcome.kind,
  isError: outcome.isError, text: outcome.text, decisionId: outcome.decisionId }));
await close(connection);
