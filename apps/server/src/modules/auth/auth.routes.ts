import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  languageParamsSchema,
  loginInputSchema,
  loginResponseSchema,
  okResponseSchema,
  passwordResetRequestSchema,
  sessionUserSchema,
  updatePasswordSchema,
} from '@vetcall/shared/schemas/auth';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from './authentication.ts';
import { login, logout, sendPasswordResetEmail, updatePassword } from './auth.service.ts';

/** docs/product-rules.md#api Login, under /api/login. */
export const loginRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.post(
    '/',
    {
      schema: {
        tags: ['login'],
        summary: 'Log in; returns a bearer token, the access type and the user',
        body: loginInputSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => login(context, request.body, request.ip),
  );

  app.post(
    '/sendpasswordresetemail/:language',
    {
      schema: {
        tags: ['login'],
        summary: 'Email a password reset link in the given language (always 200 for a well-formed request)',
        params: languageParamsSchema,
        body: passwordResetRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await sendPasswordResetEmail(
        context,
        { email: request.body.email, language: request.params.language },
        request.ip,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/updatepassword',
    {
      schema: {
        tags: ['login'],
        summary: 'Set a new password with a reset token; ends every session of that user',
        body: updatePasswordSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await updatePassword(context, request.body, request.ip);
      return { ok: true as const };
    },
  );
};

/** Session endpoints beside the contract: /api/logout and /api/me. */
export const sessionRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.post(
    '/logout',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['login'],
        summary: 'Revoke the presented token',
        security: [{ bearer: [] }],
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await logout(context, actorOf(request));
      return { ok: true as const };
    },
  );

  app.get(
    '/me',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['login'],
        summary: 'The user behind the presented token',
        security: [{ bearer: [] }],
        response: { 200: sessionUserSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { user_id: actor.userId, type: actor.type, name: actor.name, email: actor.email, locale: actor.locale };
    },
  );
};
