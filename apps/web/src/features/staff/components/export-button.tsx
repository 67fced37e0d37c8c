import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiDownload } from '../../../lib/api-client';
import { apiErrorMessage } from '../../../lib/form-errors';
import { currentLocale } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';

/**
 * "Export to Excel" (docs/product-rules.md#manager-screens): the server builds the .xlsx with a timestamped file name.
 */
export function ExportButton({ list, query = '' }: { list: string; query?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      await apiDownload(`/api/exports/${list}?lang=${currentLocale()}${query}`, `${list}.xlsx`);
    } catch (error) {
      notifyError(apiErrorMessage(t, error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="default" onClick={() => void download()} loading={busy}>
      {t('staff.export_excel')}
    </Button>
  );
}
