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
import { encodeJson, sendJson } from '../../lib/json-answer.ts';
import { originOf } from '../../lib/request-origin.ts';
import { actorOf, requireAuth, sessionActorOf } from './authentication.ts';
import { type Actor, login, logout, sendPasswordResetEmail, updatePassword } from './auth.service.ts';

/**
 * GET /api/me's answer per actor: the session cache hands out one actor object while the session and its
 * user are unchanged (auth.service authenticateToken), so its answer is encoded once; a changed user or a
 * revoked session gives a new actor (or a 401), and the old one's answer goes with it.
 */
const meAnswers = new WeakMap<Actor, string>();

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
        errors: { 401: ['invalid_login_attempt'], 429: ['too_many_requests'] },
      },
    },
    async (request) => login(context, request.body, originOf(request)),
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
        errors: { 429: ['too_many_requests'] },
      },
    },
    async (request) => {
      await sendPasswordResetEmail(
        context,
        { email: request.body.email, language: request.params.language },
        originOf(request),
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
        errors: { 400: ['invalid_or_expired_token'], 429: ['too_many_requests'] },
      },
    },
    async (request) => {
      await updatePassword(context, request.body, originOf(request));
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
    async (request, reply) => {
      const actor = sessionActorOf(request);
      let answer = meAnswers.get(actor);
      if (!answer) {
        const { userId, type, name, email, locale } = actor;
        answer = encodeJson(sessionUserSchema, { user_id: userId, type, name, email, locale });
        meAnswers.set(actor, answer);
      }
      return sendJson(reply, answer);
    },
  );
};
