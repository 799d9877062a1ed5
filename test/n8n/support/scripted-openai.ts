/**
 * A scripted OpenAI-compatible chat server for the AI-agent e2e test: node:http on 127.0.0.1, answering
 * POST /v1/chat/completions with the next scripted reply (a tool call or a final answer) and GET /v1/models, and
 * recording every request body so the test can assert what n8n sent the model.
 */
import { createServer, type IncomingMessage } from 'node:http';

export interface ChatRequest {
  model?: string;
  messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: JsonSchema } }>;
}
export interface JsonSchema { type?: string; description?: string; properties?: Record<string, JsonSchema>; required?: string[] }

/** One scripted turn: a tool call (name + arguments, computed from the request) or the final text. */
export type Turn = (request: ChatRequest) => { tool: string; args: Record<string, unknown> } | { text: string };

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startScriptedOpenAi(script: Turn[]) {
  const requests: ChatRequest[] = [];
  let turn = 0;
  const server = createServer((req, res) => {
    void body(req).then((text) => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model', owned_by: 'test' }] }));
        return;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request = JSON.parse(text) as ChatRequest;
      requests.push(request);
      const step = script[turn] ?? (() => ({ text: 'script exhausted' }));
      turn += 1;
      const reply = step(request);
      const message = 'tool' in reply
        ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] }
        : { role: 'assistant', content: reply.text };
      res.end(JSON.stringify({
        id: `chatcmpl-${turn}`, object: 'chat.completion', created: 0, model: request.model ?? 'scripted-model',
        choices: [{ index: 0, message, finish_reason: 'tool' in reply ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }));
    }, () => { res.statusCode = 500; res.end(); });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((done) => { server.close(() => done()); }),
  };
}
