// The least a Node gateway can do, as a baseline for the gateway benchmark: node:http in front of an
// undici pool, each chat completion forwarded to the model server as it came and its answer returned as
// it came, with no routing, no checks, no log. What any gateway written in Node spends at the least.
//   node out/test/bench/bareProxy.js <port> <model server base URL>   prints "listening <port>" when ready
import http from 'node:http';
import { Pool } from 'undici';

const port = Number(process.argv[2] ?? 0);
const upstream = new URL(process.argv[3] ?? 'http://127.0.0.1:1/v1');
const pool = new Pool(upstream.origin, { connections: 256 });
const path = `${upstream.pathname.replace(/\/+$/, '')}/chat/completions`;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    pool
      .request({
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
        body: Buffer.concat(chunks),
      })
      .then(async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
});
server.listen(port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
