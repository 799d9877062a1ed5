// The floor the relay is judged against (bench/relay-faults.ts): a bare pass-through proxy in the same workerd,
// written the way Hono's docs show one, that forwards the caller's request to UPSTREAM with its headers as sent. No
// caller authentication, no route table, no token, no limiter, no error mapping: what any Worker in front of the
// service costs at least.
import { Hono } from 'hono';

const app = new Hono();
app.all('*', (c) => {
  const url = new URL(c.req.url);
  return fetch(`${c.env.UPSTREAM}${url.pathname}${url.search}`, { method: c.req.method, headers: c.req.raw.headers });
});

export default app;
