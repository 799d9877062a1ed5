/**
 * The shared relay suite against the relay in Node (@hono/node-server, memory token cache), over a loopback socket.
 */
import { relaySuite } from './suite.ts';
import { startNode } from './support/targets.ts';

relaySuite('node', startNode, { durableCache: false });
