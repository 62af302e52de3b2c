// A model server for the gateway benchmark, in a process of its own so that it does not share a core's
// time with the load generator: POST {base}/chat/completions answers one OpenAI chat completion (with
// usage): at once, or after `delayMs` for the model named `slowModel`, as a provider's model would.
//   node out/test/bench/fakeModelServer.js <port> <slowModel> <delayMs>   prints "listening <port>" when ready
import http from 'node:http';

const port = Number(process.argv[2] ?? 0);
const slowModel = process.argv[3] ?? '';
const delayMs = Number(process.argv[4] ?? 0);

const answer = (model: string) =>
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: 'The answer is 42.' }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18, prompt_tokens_details: { cached_tokens: 0 } },
  });

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    let model = 'unknown';
    try {
      model = (JSON.parse(body) as { model?: string }).model ?? model;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer(model));
    if (model === slowModel && delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
