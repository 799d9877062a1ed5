/**
 * The shared relay suite against the relay in Deno (deno serve, Deno KV), over a loopback socket.
 */
import { relaySuite } from './suite.ts';
import { startDeno } from './support/targets.ts';

relaySuite('deno', startDeno, { durableCache: true });
