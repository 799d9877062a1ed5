/**
 * The shared relay suite against the relay in Node (@hono/node-server, memory token cache), over a loopback socket.
 */
import { misbehavingSuite } from './suite-misbehaving.ts';
import { relaySuite } from './suite.ts';
import { startNode } from './support/targets.ts';

relaySuite('node', startNode, { durableCache: false });
misbehavingSuite('node', startNode, { callerLeaveSeen: true, hostIgnored: true, drains: true });
