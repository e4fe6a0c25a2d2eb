// Loopback proxy for the conformance runner: forwards every request to the gateway unchanged (method, path, Host,
// Origin, body, streaming response) and adds `Authorization: Bearer $GATEHOUSE_TOKEN`, which the runner cannot send.
// Usage: GATEHOUSE_TOKEN=... node proxy.mjs <listen-port> <gateway-base-url>
import http from 'node:http';

const [listenPort, target] = [Number(process.argv[2]), new URL(process.argv[3])];
const token = process.env.GATEHOUSE_TOKEN;
if (!token) throw new Error('GATEHOUSE_TOKEN is required');

const server = http.createServer((request, response) => {
  const headers = { ...request.headers, authorization: `Bearer ${token}` };
  const upstream = http.request({
    host: target.hostname, port: target.port, method: request.method, path: request.url, headers,
  }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => { response.writeHead(502); response.end(); });
  request.pipe(upstream);
});
server.listen(listenPort, '127.0.0.1', () => console.log(`proxy 127.0.0.1:${listenPort} -> ${target.origin}`));
