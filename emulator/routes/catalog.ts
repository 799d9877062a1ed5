import type { Hono } from 'hono';
import { collectionResponse } from '../collection.ts';
import type { AppEnv, EmulatorContext } from '../context.ts';
import { jsonLd, notFound } from '../hydra.ts';
import { courseModules, findReachableModule, parseId, publishedCourses, reachableModules } from '../queries.ts';
import { categoryJson, courseJson, moduleJson, organizationJson, withContext } from '../serialize.ts';

const P = '/:env/v1';

/**
 * Read-only catalog: organizations, categories, published courses (detail with modules) and reachable modules.
 * Anything unknown or unpublished is 404 hydra:Error.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerCatalog(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const catalogOf = (env: AppEnv['Variables']['env']) => ctx.state.envs[env].catalog;

  app.get(`${P}/organizations`, (c) => {
    const env = c.get('env');
    return collectionResponse(new URL(c.req.url), catalogOf(env).organizations, {
      type: 'Organization',
      env,
      id: (o) => o.id,
      serialize: (o) => organizationJson(env, o),
    });
  });
  app.get(`${P}/organizations/:id`, (c) => {
    const env = c.get('env');
    const o = catalogOf(env).organizations.find((x) => x.id === parseId(c.req.param('id')));
    return o ? jsonLd(withContext(env, 'Organization', organizationJson(env, o))) : notFound('Organization not found.');
  });

  app.get(`${P}/categories`, (c) => {
    const env = c.get('env');
    return collectionResponse(new URL(c.req.url), catalogOf(env).categories, {
      type: 'Category',
      env,
      id: (x) => x.id,
      updatedAt: (x) => x.updatedAt,
      serialize: (x) => categoryJson(env, x),
    });
  });
  app.get(`${P}/categories/:id`, (c) => {
    const env = c.get('env');
    const x = catalogOf(env).categories.find((y) => y.id === parseId(c.req.param('id')));
    return x ? jsonLd(withContext(env, 'Category', categoryJson(env, x))) : notFound('Category not found.');
  });

  app.get(`${P}/courses`, (c) => {
    const env = c.get('env');
    return collectionResponse(new URL(c.req.url), publishedCourses(catalogOf(env)), {
      type: 'Course',
      env,
      id: (x) => x.id,
      updatedAt: (x) => x.updatedAt,
      serialize: (x) => courseJson(env, x),
    });
  });
  app.get(`${P}/courses/:id`, (c) => {
    const env = c.get('env');
    const catalog = catalogOf(env);
    const x = publishedCourses(catalog).find((y) => y.id === parseId(c.req.param('id')));
    return x ? jsonLd(withContext(env, 'Course', courseJson(env, x, courseModules(catalog, x.id)))) : notFound('Course not found.');
  });

  app.get(`${P}/modules`, (c) => {
    const env = c.get('env');
    return collectionResponse(new URL(c.req.url), reachableModules(catalogOf(env)), {
      type: 'Module',
      env,
      id: (x) => x.id,
      updatedAt: (x) => x.updatedAt,
      serialize: (x) => moduleJson(env, x),
    });
  });
  app.get(`${P}/modules/:id`, (c) => {
    const env = c.get('env');
    const id = parseId(c.req.param('id'));
    const x = id === null ? undefined : findReachableModule(catalogOf(env), id);
    return x ? jsonLd(withContext(env, 'Module', moduleJson(env, x))) : notFound('Module not found.');
  });
}
