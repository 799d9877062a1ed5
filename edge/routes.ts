/**
 * The relay's closed route table (relay contract, "Routes"): each path and method maps to one core call. There is
 * no generic proxying: a path that is not here is 404, a method that is not listed is 405.
 */
import type { CatalogGroup, RegisterUserInput, UserPatch } from '../core/index.ts';
import { registerUserSchema, userPatchSchema } from '../core/validation/schemas.ts';
import { learnerTokenBodySchema } from './inputs.ts';
import { listOptions } from './list-query.ts';
import { learnerTokenRequest } from './token-route.ts';
import type { Route, RunContext } from './route-types.ts';

const num = (ctx: RunContext, name = 'id'): number => Number(ctx.params[name]);

function catalogList(name: CatalogGroup): Route {
  return {
    path: `/v1/${name}`,
    methods: {
      GET: {
        access: 'both',
        run: async (ctx) => {
          const options = listOptions(ctx.query);
          if (options instanceof Response) return options;
          return ctx.capture.json(await ctx.client[name].page({ ...options, ...ctx.capture.options }));
        },
      },
    },
  };
}

function learnerList(path: string, collection: 'progress' | 'transcripts'): Route {
  return {
    path,
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => {
          const options = listOptions(ctx.query);
          if (options instanceof Response) return options;
          return ctx.capture.json(await ctx.learner[collection].page({ ...options, ...ctx.capture.options }));
        },
      },
    },
  };
}

function catalogItem(name: CatalogGroup): Route {
  return {
    path: `/v1/${name}/:id`,
    params: { id: 'id' },
    methods: {
      GET: { access: 'both', run: async (ctx) => ctx.capture.json(await ctx.client[name].get(num(ctx), ctx.capture.options)) },
    },
  };
}

/** Every route of the relay contract. */
export const routes: Route[] = [
  {
    path: '/v1/ping',
    methods: { GET: { access: 'backend', run: async (ctx) => ctx.capture.json(await ctx.client.ping(ctx.capture.options)) } },
  },
  {
    path: '/v1/users/register',
    methods: {
      POST: {
        access: 'backend',
        body: 'json',
        bodySchema: registerUserSchema,
        run: async (ctx) => ctx.capture.json(await ctx.client.users.register(ctx.body as RegisterUserInput, ctx.capture.options), 201),
      },
    },
  },
  {
    path: '/v1/users/:uuid',
    params: { uuid: 'uuid' },
    methods: {
      GET: { access: 'backend', run: async (ctx) => ctx.capture.json(await ctx.client.users.get(ctx.params['uuid'] ?? '', ctx.capture.options)) },
      PATCH: {
        access: 'backend',
        body: 'merge-patch',
        bodySchema: userPatchSchema,
        run: async (ctx) => ctx.capture.json(await ctx.client.users.update(ctx.params['uuid'] ?? '', ctx.body as UserPatch, ctx.capture.options)),
      },
      DELETE: {
        access: 'backend',
        run: async (ctx) => {
          await ctx.client.users.delete(ctx.params['uuid'] ?? '', ctx.capture.options);
          return ctx.capture.empty(204);
        },
      },
    },
  },
  {
    path: '/v1/me',
    methods: { GET: { access: 'learner', userScoped: true, run: async (ctx) => ctx.capture.json(await ctx.learner.me(ctx.capture.options)) } },
  },
  ...(['organizations', 'categories', 'courses', 'modules'] as const).flatMap((name) => [catalogList(name), catalogItem(name)]),
  {
    path: '/v1/modules/:id/content',
    params: { id: 'id' },
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.json(await ctx.learner.modules.content(num(ctx), ctx.capture.options)),
      },
    },
  },
  {
    path: '/v1/modules/:id/refresh-url',
    params: { id: 'id' },
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.json(await ctx.learner.modules.refreshUrl(num(ctx), ctx.capture.options)),
      },
    },
  },
  {
    path: '/v1/modules/:id/complete',
    params: { id: 'id' },
    methods: {
      POST: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => {
          await ctx.learner.modules.complete(num(ctx), ctx.capture.options);
          return ctx.capture.empty(202);
        },
      },
    },
  },
  learnerList('/v1/course-progresses', 'progress'),
  {
    path: '/v1/course-progresses/:id',
    params: { id: 'id' },
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.json(await ctx.learner.progress.get(num(ctx), ctx.capture.options)),
      },
    },
  },
  learnerList('/v1/transcripts', 'transcripts'),
  {
    path: '/v1/transcripts/:id',
    params: { id: 'id' },
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.json(await ctx.learner.transcripts.get(num(ctx), ctx.capture.options)),
      },
    },
  },
  {
    path: '/v1/transcript/pdf',
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.pdf(await ctx.learner.transcripts.pdf(ctx.capture.options)),
      },
    },
  },
  {
    path: '/v1/transcripts/:id/certificate/pdf',
    params: { id: 'id' },
    methods: {
      GET: {
        access: 'both',
        userScoped: true,
        run: async (ctx) => ctx.capture.pdf(await ctx.learner.transcripts.certificatePdf(num(ctx), ctx.capture.options)),
      },
    },
  },
  {
    path: '/v1/learner-tokens',
    methods: { POST: { access: 'backend', body: 'json', bodySchema: learnerTokenBodySchema, run: learnerTokenRequest } },
  },
];
