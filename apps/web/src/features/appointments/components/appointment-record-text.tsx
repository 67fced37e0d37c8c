import type { ChangeEvent } from 'react';
import { Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AppointmentDto } from '@vetcall/shared/schemas/appointment';
import { DESCRIPTION_MAX } from '@vetcall/shared/schemas/booking';
import { type AppointmentEdit, savedObservations } from './use-appointment-edit';

/** Observations are free text; the server refuses more than this (appointmentUpdateSchema). */
const OBSERVATIONS_MAX = 20_000;

/**
 * The chief complaint and the vet's observations, each read-only or, for the field the viewer edits, a
 * text area holding the draft. Customers never receive observations (the server leaves them out).
 */
export function AppointmentRecordText({ appointment, edit }: { appointment: AppointmentDto; edit: AppointmentEdit }) {
  const { t } = useTranslation();
  const editingField = edit.editing ? edit.editableField : null;
  const observations = savedObservations(appointment);
  const draftProps = {
    autosize: true,
    value: edit.draft,
    error: edit.draftError,
    onChange: (event: ChangeEvent<HTMLTextAreaElement>) => edit.setDraft(event.currentTarget.value),
  };
  return (
    <>
      {editingField === 'description' ? (
        <Textarea
          label={t('appointment.description')}
          required
          minRows={3}
          maxLength={DESCRIPTION_MAX}
          {...draftProps}
        />
      ) : (
        <TextBlock label={t('appointment.description')} text={appointment.description} />
      )}
      {observations !== undefined &&
        (editingField === 'vet_observations' ? (
          <Textarea
            label={t('appointment.vet_observations')}
            minRows={4}
            maxLength={OBSERVATIONS_MAX}
            {...draftProps}
          />
        ) : (
          <TextBlock
            label={t('appointment.vet_observations')}
            text={observations}
            emptyText={t('appointment.no_observations')}
          />
        ))}
    </>
  );
}

function TextBlock({ label, text, emptyText }: { label: string; text: string; emptyText?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c={text ? undefined : 'dimmed'}>
        {text || emptyText || '—'}
      </Text>
    </div>
  );
}
