import { useCallback, useState } from 'react';
import { PetRecordModal } from '../../pets/components/pet-record-modal';
import { AppointmentDetailModal } from './appointment-detail';

/**
 * An appointment detail or a pet record, opened one from the other (docs/product-rules.md#appointment-records Record,
 * #pet-records Details).
 */
export type RecordView = { kind: 'appointment'; appointmentId: number } | { kind: 'pet'; petId: number };

function sameView(a: RecordView, b: RecordView): boolean {
  if (a.kind === 'appointment' && b.kind === 'appointment') return a.appointmentId === b.appointmentId;
  if (a.kind === 'pet' && b.kind === 'pet') return a.petId === b.petId;
  return false;
}

/**
 * The views opened from a list, as a stack: only the top one shows (no modal over a modal), Back or
 * close returns to the one below. Opening a view already in the stack returns to it, so going from a
 * record to an appointment and back to the same record does not pile up.
 */
export function useRecordViews() {
  const [stack, setStack] = useState<RecordView[]>([]);
  const open = useCallback((view: RecordView) => {
    setStack((current) => {
      const index = current.findIndex((item) => sameView(item, view));
      return index >= 0 ? current.slice(0, index + 1) : [...current, view];
    });
  }, []);
  const back = useCallback(() => setStack((current) => current.slice(0, -1)), []);
  return { top: stack[stack.length - 1], open, back };
}

export type RecordViews = ReturnType<typeof useRecordViews>;

/** The modals of the top view of `views`. */
export function RecordViewModals({ views }: { views: RecordViews }) {
  const { top, open, back } = views;
  return (
    <>
      <PetRecordModal
        petId={top?.kind === 'pet' ? top.petId : undefined}
        onClose={back}
        onOpenAppointment={(appointmentId) => open({ kind: 'appointment', appointmentId })}
      />
      <AppointmentDetailModal
        appointmentId={top?.kind === 'appointment' ? top.appointmentId : undefined}
        onClose={back}
        onOpenPetRecord={(petId) => open({ kind: 'pet', petId })}
      />
    </>
  );
}
