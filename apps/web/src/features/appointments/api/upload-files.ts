import type { ApiErrorBody } from '@vetcall/shared/error-codes';
import type { AppointmentFile, FileData } from '@vetcall/shared/schemas/appointment';
import { ApiError } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';

/**
 * POST /api/appointments/file/{appointment_id}: multipart `file_data` (JSON) then `files[]`. Sent with
 * XMLHttpRequest rather than fetch because only XHR reports upload progress, which large files need.
 * `onProgress` receives the fraction sent (0 to 1). Errors are ApiErrors, like apiUpload's.
 */
export function uploadAppointmentFiles(
  data: FileData,
  files: readonly File[],
  onProgress?: (fraction: number) => void,
): Promise<AppointmentFile[]> {
  const form = new FormData();
  // file_data first: the server reads it before it streams the files.
  form.append('file_data', JSON.stringify(data));
  for (const file of files) form.append('files[]', file, file.name);

  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/appointments/file/${data.appointment_id}`);
    request.setRequestHeader('accept', 'application/json');
    const token = storage.getToken();
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(request.responseText);
      } catch {
        // A proxy or crash page: keep the status only.
      }
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(1);
        resolve(payload as AppointmentFile[]);
        return;
      }
      const body = (payload ?? {}) as Partial<ApiErrorBody>;
      const fallback = request.status === 413 ? 'files_too_large' : 'internal_error';
      reject(new ApiError(request.status, body.error ?? fallback, body.message ?? request.statusText, body.fields));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'network error')));
    request.addEventListener('abort', () => reject(new ApiError(0, 'network_error', 'upload aborted')));
    request.send(form);
  });
}
