import { Button, FileButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { uploadUserPhoto } from '../api/staff';
import { bumpPhotoVersion } from '../photo-version';

const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

/** Uploads a new photo (JPEG, PNG or WebP up to 5 MB; the server checks the content and resizes it). */
export function PhotoUploadButton({ userId, label }: { userId: number; label?: string }) {
  const { t } = useTranslation();
  const upload = useMutation({
    mutationFn: (file: File) => uploadUserPhoto(userId, file),
    onSuccess: () => {
      bumpPhotoVersion(userId);
      notifySuccess(t('staff.photo_updated'));
    },
    onError: (error) => notifyError(apiErrorMessage(t, error, 'errors.error_changing_user_image')),
  });

  function choose(file: File | null) {
    // docs/product-rules.md#errors: an error when no file is chosen.
    if (!file) return notifyError(t('staff.photo_none_chosen'));
    if (file.size > MAX_PHOTO_BYTES) return notifyError(t('staff.photo_too_large'));
    upload.mutate(file);
  }

  return (
    <FileButton onChange={choose} accept="image/jpeg,image/png,image/webp">
      {(props) => (
        <Button {...props} size="xs" variant="light" loading={upload.isPending}>
          {label ?? t('staff.upload_photo')}
        </Button>
      )}
    </FileButton>
  );
}
