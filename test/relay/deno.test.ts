/**
 * The shared relay suite against the relay in Deno (deno serve, Deno KV), over a loopback socket.
 */
import { misbehavingSuite } from './suite-misbehaving.ts';
import { relaySuite } from './suite.ts';
import { startDeno } from './support/targets.ts';

relaySuite('deno', startDeno, { durableCache: true });
misbehavingSuite('deno', startDeno, { callerLeaveSeen: true, hostIgnored: false, drains: true });
