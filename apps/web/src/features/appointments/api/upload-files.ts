import type { AppointmentFile, FileData } from '@vetcall/shared/schemas/appointment';
import { bearerHeader, networkError, parseApiError } from '../../../lib/api-client';

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
    for (const [name, value] of Object.entries({ accept: 'application/json', ...bearerHeader() })) {
      request.setRequestHeader(name, value);
    }
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(1);
        try {
          resolve(JSON.parse(request.responseText) as AppointmentFile[]);
        } catch (error) {
          reject(error);
        }
        return;
      }
      reject(
        parseApiError(
          request.status,
          request.statusText,
          request.responseText,
          request.getResponseHeader('retry-after'),
        ),
      );
    });
    request.addEventListener('error', () => reject(networkError()));
    request.addEventListener('abort', () => reject(networkError('upload aborted')));
    request.send(form);
  });
}
