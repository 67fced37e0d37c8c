import { completionTerms } from '@vetcall/shared/appointment-rules';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto } from '@vetcall/shared/schemas/appointment';
import type { AppContext } from '../../context.ts';
import { transitionAppointment } from '../../db/appointment-transition.ts';
import { AppError, forbidden } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { getAppointment, lockVisibleAppointment } from './records.service.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets'>;

/**
 * POST /api/appointments/{appointment_id}/complete: the vet marks their confirmed appointment done once it
 * has started, before its room closes by itself (completionTerms, @vetcall/shared/appointment-rules). The
 * room closes with it: a PIN opens the call only while the appointment is confirmed. 404 when not the
 * actor's to see; 403 for the customer and managers; 409 invalid_transition (not confirmed) or
 * completion_too_early (before the start).
 */
export async function completeAppointment(
  deps: Deps,
  actor: Actor,
  appointmentId: number,
  locale: Locale,
): Promise<AppointmentDto> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { appointment: row, viewer } = await lockVisibleAppointment(tx, actor, appointmentId);
    const terms = completionTerms(viewer, row, now);
    if (!terms.allowed) {
      if (terms.reason === 'forbidden') throw forbidden();
      throw new AppError(terms.reason, 409, {
        message:
          terms.reason === 'invalid_transition'
            ? 'Only a confirmed appointment can be marked done.'
            : 'An appointment can be marked done once it has started.',
      });
    }
    await transitionAppointment(tx, row.id, 'TK_Completed', now, actor, { completedAt: now });
  });
  return getAppointment(deps, actor, appointmentId, locale);
}
