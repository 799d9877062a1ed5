import type { Hono } from 'hono';
import { collectionResponse } from '../collection.ts';
import type { AppEnv, EmulatorContext } from '../context.ts';
import { emptyResponse, hydraError, jsonLd, notFound } from '../hydra.ts';
import { learnerRequired } from '../learner.ts';
import { findReachableModule, parseId } from '../queries.ts';
import { completeModule } from '../records.ts';
import { progressJson, transcriptJson, withContext } from '../serialize.ts';

const P = '/:env/v1';

/**
 * Completion notification and the learner's own progress and transcript records (X-User-ID endpoints).
 * Another learner's record id answers 404, as an unknown one does.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerLearning(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const withLearner = learnerRequired(ctx);
  app.post(`${P}/modules/:id/complete`, withLearner, (c) => {
    const learner = c.get('learner');
    const data = ctx.state.envs[c.get('env')];
    const id = parseId(c.req.param('id'));
    const module = id === null ? undefined : findReachableModule(data.catalog, id);
    if (!module) return notFound('Module not found.');
    if (module.contentType === 'scorm') {
      return hydraError(409, 'This module is SCORM content: it reports its own completion, /complete is not allowed.');
    }
    completeModule(data, learner.uuid, module, null, ctx.clock.now());
    return emptyResponse(202);
  });

  app.get(`${P}/course-progresses`, withLearner, (c) => {
    const learner = c.get('learner');
    const env = c.get('env');
    const data = ctx.state.envs[env];
    return collectionResponse(new URL(c.req.url), data.progressesByLearner.get(learner.uuid) ?? [], {
      type: 'CourseProgress',
      env,
      id: (p) => p.id,
      updatedAt: (p) => p.updatedAt,
      serialize: (p) => progressJson(env, p, data.catalog),
    });
  });
  app.get(`${P}/course-progresses/:id`, withLearner, (c) => {
    const learner = c.get('learner');
    const env = c.get('env');
    const data = ctx.state.envs[env];
    const p = data.progresses.get(parseId(c.req.param('id')) ?? 0);
    if (!p || p.learnerUuid !== learner.uuid) return notFound('Course progress not found.');
    return jsonLd(withContext(env, 'CourseProgress', progressJson(env, p, data.catalog)));
  });

  app.get(`${P}/transcripts`, withLearner, (c) => {
    const learner = c.get('learner');
    const env = c.get('env');
    return collectionResponse(new URL(c.req.url), ctx.state.envs[env].transcriptsByLearner.get(learner.uuid) ?? [], {
      type: 'Transcript',
      env,
      id: (t) => t.id,
      updatedAt: (t) => t.updatedAt,
      serialize: (t) => transcriptJson(env, t),
    });
  });
  app.get(`${P}/transcripts/:id`, withLearner, (c) => {
    const learner = c.get('learner');
    const env = c.get('env');
    const t = ctx.state.envs[env].transcripts.get(parseId(c.req.param('id')) ?? 0);
    if (!t || t.learnerUuid !== learner.uuid) return notFound('Transcript not found.');
    return jsonLd(withContext(env, 'Transcript', transcriptJson(env, t)));
  });
}
