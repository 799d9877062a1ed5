/**
 * The shared relay suite against the relay in workerd (Miniflare, Workers KV and the rate-limit binding), over a loopback socket.
 */
import { misbehavingSuite } from './suite-misbehaving.ts';
import { relaySuite } from './suite.ts';
import { startWorkerd } from './support/targets.ts';

relaySuite('workerd', startWorkerd, { durableCache: true });
misbehavingSuite('workerd', startWorkerd, { callerLeaveSeen: false, hostIgnored: false, drains: false });
