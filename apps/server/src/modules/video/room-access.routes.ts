import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pinLookupSchema, pinParamsSchema, roomWindowErrorSchema } from '@vetcall/shared/schemas/video';
import type { AppContext } from '../../context.ts';
import { jitsiToken } from '../../providers/video/jitsi-token.ts';
import { openRoomByPin, roomWindowMessage } from './room-access.service.ts';

/**
 * GET /api/appointments/pin/{pin} (docs/product-rules.md#api): no login, the PIN is the credential; rate-limited per
 * IP.
 */
export const roomAccessRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/pin/:pin',
    {
      schema: {
        tags: ['video'],
        summary:
          'Whose PIN this is and which room it opens (30 min before to 1 h after the start); 409 outside that window',
        params: pinParamsSchema,
        response: { 200: pinLookupSchema, 409: roomWindowErrorSchema },
        errors: { 404: ['pin_not_found'], 429: ['too_many_requests'] },
      },
    },
    async (request, reply) => {
      // The answer names a person and a room: no cache may keep it.
      void reply.header('cache-control', 'no-store');
      const access = await openRoomByPin(context, request.params.pin, { ip: request.ip, log: request.log });
      const window = { opens_at: access.window.opensAt.toISOString(), closes_at: access.window.closesAt.toISOString() };
      if (access.kind !== 'open') {
        return reply.status(409).send({ error: access.kind, message: roomWindowMessage(access), ...window });
      }
      // A self-hosted Jitsi with token auth: a JWT for this room and this person (the log never sees bodies).
      const { jitsiToken: tokenSettings, jitsiDomain } = context.config.video;
      const jitsi =
        tokenSettings && jitsiDomain
          ? { jitsi_jwt: await jitsiToken({ ...tokenSettings, domain: jitsiDomain }, access, context.clock.now()) }
          : {};
      return {
        user_email: access.user.email,
        user_name: access.user.name,
        hash: access.hash,
        party: access.party,
        ...window,
        ...jitsi,
      };
    },
  );
};
