import { Select } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale, isLocale, normalizeLocale } from '@vetcall/shared/locales';
import { changeLanguage, currentLocale } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';

/**
 * The language switcher of the login screen (docs/product-rules.md#login-and-account: shown only outside production).
 */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useSearchParams();
  return (
    <Select
      label={t('languages.label')}
      data={LOCALES.map((locale: Locale) => ({ value: locale, label: t(`languages.${locale}`) }))}
      value={normalizeLocale(i18n.language) ?? currentLocale()}
      onChange={(value) => {
        if (!value || !isLocale(value)) return;
        changeLanguage(value)
          .then(() => {
            // Keep a ?lang= in the address in step with the choice, so a reload shows the same language.
            if (search.has('lang'))
              setSearch((current) => ({ ...Object.fromEntries(current), lang: value }), { replace: true });
          })
          .catch(() => notifyError(t('errors.network_error')));
      }}
      allowDeselect={false}
      w={200}
      size="xs"
    />
  );
}
