/**
 * Logging: a logger that captures every line and field through a run with successes, errors, token endpoint
 * failures and a 401 retry; nothing it captured may contain a secret, an API key, an access token or `Basic `.
 */
import { describe, expect, it } from 'vitest';
import type { LogLevel } from '../../../core/types/options.ts';
import { RecordingTokenStore, startInProcess } from '../../support/core-harness.ts';
import { flatten, leakedSecrets, pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

interface Line {
  level: LogLevel;
  message: string;
  fields?: Record<string, unknown>;
}

describe('logging', () => {
  it('captures the run and never a secret, API key, token or Basic credential', async () => {
    const h = await startInProcess();
    const lines: Line[] = [];
    const logger = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
    const store = new RecordingTokenStore();
    const rw = h.creds();
    const client = h.client({ logger, tokenStore: store });
    const errors: unknown[] = [];
    const keep = (e: unknown): void => void errors.push(e);

    const picks = await pickCatalog(h.control);
    const learner = await registerLearner(client);
    await client.modules.content(picks.completable.id, { userId: learner.uuid });
    await client.modules.complete(picks.completable.id, { userId: learner.uuid });
    await client.transcripts.list({ userId: learner.uuid }).toArray({ max: 10 });
    await client.modules.complete(picks.scorm.id, { userId: learner.uuid }).catch(keep);
    await client.users.get('0b8f7c1e-5d2a-4c3b-9e8f-7a6b5c4d3e2f').catch(keep);
    await client.modules.content(picks.completable.id, { userId: 'nope' }).catch(keep);
    // A 401 retry: the service's clock passes the token's expiry, the client's does not.
    await h.control.advanceClock(3700);
    await client.categories.list().toArray({ max: 1 });
    // A 5xx retried once.
    await h.control.setFaults({ rate: 1, statuses: [503], pathPattern: 'courses' });
    h.clock.onSleep = async () => {
      h.clock.onSleep = undefined;
      await h.control.clearFaults();
    };
    await client.courses.list().toArray({ max: 1 });

    // Failures at the token endpoint and a persistent 401, logged through the same logger.
    const production = h.creds({ env: 'production' });
    const wrongSecret = `${rw.clientSecret.slice(0, -3)}xyz`;
    await h.client({ logger, clientSecret: wrongSecret }).categories.get(1).catch(keep);
    await h.client({ logger, clientSecret: h.creds({ partner: 1 }).apiKey }).categories.get(1).catch(keep);
    await h
      .client({ logger, baseUrl: rw.baseUrl, apiKey: rw.apiKey }, { env: 'production' })
      .categories.get(1)
      .catch(keep);
    await h.client({ logger }, { client: 'ro' }).categories.get(1).catch(keep);

    expect(lines.length).toBeGreaterThan(10);
    expect(errors).toHaveLength(7);
    const tokens = store.sets.map((s) => s.token.accessToken);
    expect(tokens).toHaveLength(2);
    const ro = h.creds({ client: 'ro' });
    const secrets = [
      rw.clientSecret,
      rw.apiKey,
      wrongSecret,
      production.clientSecret,
      production.apiKey,
      h.creds({ partner: 1 }).apiKey,
      ro.clientSecret,
      ...tokens,
      ...tokens.map((t) => t.split('.')[2]!),
      'Basic ',
      btoa(`${rw.clientId}:${rw.clientSecret}`),
    ];
    expect(leakedSecrets(flatten(lines), secrets)).toEqual([]);
    // The errors handed to callers obey the same rule.
    expect(leakedSecrets(flatten(errors), secrets)).toEqual([]);
  });
});
