import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import {
  type AppointmentDto,
  type AppointmentFile,
  appointmentFileSchema,
  appointmentSchema,
  appointmentUpdatedSchema,
} from '@vetcall/shared/schemas/appointment';
import { formatDateTime } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { loadTestClientConfig } from '../../../test/client-config';
import { APPOINTMENT_12, lifecycleOf } from '../../../test/appointment-fixtures';
import { fakeApi } from '../../../test/fake-api';
import { FakeUploadRequest } from '../../../test/fake-upload-request';
import { fileAddedNoticeSchema, fileRemovedSchema } from '../../../test/route-schemas';
import { initTestI18n, withProviders } from '../../../test/render';
import { AppointmentDetailModal } from './appointment-detail';

const common = { ...APPOINTMENT_12, lifecycle: lifecycleOf() };

const asCustomer: AppointmentDto = { ...common, viewer: 'customer', customer_pin: '123456' };
const asVet: AppointmentDto = { ...common, viewer: 'vet', vet_observations: 'Mild dermatitis.', vet_pin: '654321' };
const asManager: AppointmentDto = { ...common, viewer: 'manager', vet_observations: 'Mild dermatitis.' };

function storedFile(overrides: Partial<AppointmentFile> = {}): AppointmentFile {
  return {
    file_id: 9,
    appointment_id: 12,
    file_name: 'report.pdf',
    file_description: 'Blood test',
    file_type: 'application/pdf',
    file_size: 1_572_864,
    upload_time: '2026-11-19T08:00:00.000Z',
    uploaded_by: 'customer',
    download_url: '/api/appointments/download-file.php?file_id=9',
    ...overrides,
  };
}

/** The server at the network boundary: one appointment as the viewer gets it, its files, calls recorded. */
function fakeServer(appointment: AppointmentDto, files: AppointmentFile[] = [storedFile()]) {
  return fakeApi()
    .answer('GET', '/api/appointments/byid/12', appointmentSchema, appointment)
    .answer('GET', '/api/appointments/files/12', z.array(appointmentFileSchema), files)
    .answer('PUT', '/api/appointments/12', appointmentUpdatedSchema, { user_id: 5 })
    .answer('DELETE', /^\/api\/appointments\/file\/(\d+)$/, fileRemovedSchema, ({ match }) => ({
      file_id: Number(match[1]),
    }))
    .answer('PUT', /^\/api\/appointments\/newfileadded\//, fileAddedNoticeSchema, { success: true }).calls;
}

function renderDetail(onOpenPetRecord = vi.fn()) {
  const onClose = vi.fn();
  render(
    withProviders(<AppointmentDetailModal appointmentId={12} onClose={onClose} onOpenPetRecord={onOpenPetRecord} />),
  );
  return { onClose, onOpenPetRecord };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

/** A file of a given size without allocating it. */
function fileOfSize(name: string, size: number, type = 'image/png') {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('AppointmentDetail', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    notifications.clean();
    notifications.cleanQueue();
  });

  it('shows a customer the appointment without observations, and the files with their sizes', async () => {
    fakeServer(asCustomer);
    const { onOpenPetRecord, onClose } = renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(await within(dialog).findByText('Itching since Monday')).toBeTruthy();
    // In the viewer's zone, with the zone named (formatDateTime).
    expect(within(dialog).getByText(formatDateTime(common.schedule, 'en'))).toBeTruthy();
    expect(within(dialog).queryByText(/observations/i)).toBeNull();
    expect(within(dialog).queryByText('Mild dermatitis.')).toBeNull();
    const table = await within(dialog).findByRole('table', { name: 'Files of the appointment' });
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('report.pdfBlood testapplication/pdf1.5 MB');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Record of Bolinha' }));
    expect(onOpenPetRecord).toHaveBeenCalledWith(7);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('lets a customer edit the chief complaint (never observations), then Save ends editing', async () => {
    const calls = fakeServer(asCustomer);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Modify data' }));
    expect(within(dialog).queryByRole('textbox', { name: /observations/i })).toBeNull();
    const complaint = within(dialog).getByRole('textbox', { name: /^Chief complaint/ });
    await userEvent.clear(complaint);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.type(complaint, 'Itching and redness');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Appointment updated.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ description: 'Itching and redness' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Modify data' })).toBeTruthy());
    expect(within(dialog).queryByRole('textbox')).toBeNull();
  });

  it('lets a vet edit the observations (not the complaint); Cancel leaves editing without saving', async () => {
    const calls = fakeServer(asVet);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(await within(dialog).findByText('Mild dermatitis.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify data' }));
    expect(within(dialog).queryByRole('textbox', { name: /Chief complaint/ })).toBeNull();
    const observations = within(dialog).getByRole('textbox', { name: 'Vet observations' });
    expect((observations as HTMLTextAreaElement).value).toBe('Mild dermatitis.');

    await userEvent.type(observations, ' Cream twice a day.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify data' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Vet observations' }), ' Cream.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Appointment updated.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ vet_observations: 'Mild dermatitis. Cream.' });
  });

  it('offers a customer removal only of the files they added', async () => {
    fakeServer(asCustomer, [
      storedFile(),
      storedFile({ file_id: 10, file_name: 'vet-report.pdf', uploaded_by: 'vet' }),
    ]);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Modify data' }));
    expect(within(dialog).getByRole('button', { name: 'Delete report.pdf' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Download vet-report.pdf' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Delete vet-report.pdf' })).toBeNull();
  });

  it('shows a manager the observations read-only: no Modify data, no Delete, Download only', async () => {
    fakeServer(asManager);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(await within(dialog).findByText('Mild dermatitis.')).toBeTruthy();
    expect(await within(dialog).findByRole('button', { name: 'Download report.pdf' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Modify data' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
  });

  it('offers no Modify data once the status freezes the record (canceled), as the server would refuse it', async () => {
    fakeServer({ ...asVet, appointment_status_key: 'TK_Canceled', appointment_status: 'Canceled' });
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(await within(dialog).findByRole('button', { name: 'Download report.pdf' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Modify data' })).toBeNull();
  });

  it('refuses files over the customer cap for the appointment with a toast and clears the choice', async () => {
    // 15 MB already attached: 6 MB more passes the 20 MB customer cap, 4 MB does not.
    fakeServer(asCustomer, [storedFile({ file_size: 15 * 1024 * 1024 })]);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Modify data' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'New file' }));
    expect(within(dialog).getByText('Up to 20.0 MB in total per appointment.')).toBeTruthy();
    await userEvent.upload(fileInput(), fileOfSize('xray.png', 6 * 1024 * 1024));
    expect(await screen.findByText('Max files size exceeded.')).toBeTruthy();
    expect(within(dialog).queryByText('xray.png')).toBeNull();

    await userEvent.upload(fileInput(), fileOfSize('photo.png', 4 * 1024 * 1024));
    expect(within(dialog).getByText('photo.png')).toBeTruthy();
  });

  it('asks before marking a file for removal, removes it on Save, and says so', async () => {
    const calls = fakeServer(asVet);
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Modify data' }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete report.pdf' }));
    let confirm = await screen.findByRole('dialog', { name: 'Remove file?' });
    expect(within(confirm).getByText('report.pdf will be removed from the appointment when you save.')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove file?' })).toBeNull());
    expect(within(dialog).queryByText('Removed when you save')).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete report.pdf' }));
    confirm = await screen.findByRole('dialog', { name: 'Remove file?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove file' }));
    expect(await within(dialog).findByText('Removed when you save')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('File removed.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/appointments/file/9',
    ]);
  });

  it('uploads new files on Save with their description, then notifies the other party', async () => {
    const calls = fakeServer(asCustomer, []);
    // The upload goes through XMLHttpRequest, not fetch: its answer is held to the route's schema here.
    vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
    FakeUploadRequest.answer = {
      status: 201,
      body: JSON.stringify(z.array(appointmentFileSchema).parse([storedFile({ file_id: 20, file_name: 'xray.png' })])),
    };
    renderDetail();
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Modify data' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'New file' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Choose a file.')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^File description/ }), 'X');
    await userEvent.upload(fileInput(), fileOfSize('xray.png', 2048));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Too short.')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^File description/ }), '-ray');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Added when you save')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('New file added.')).toBeTruthy();
    const upload = FakeUploadRequest.last;
    expect(upload.url).toBe('/api/appointments/file/12');
    expect(JSON.parse(String(upload.body!.get('file_data')))).toEqual({
      appointment_id: 12,
      file_description: 'X-ray',
    });
    expect((upload.body!.getAll('files[]') as File[]).map((file) => file.name)).toEqual(['xray.png']);
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/appointments/newfileadded/12/customer/en')).toBe(true),
    );
  });
});
