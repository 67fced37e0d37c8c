import { NativeSelect } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale, isLocale, normalizeLocale } from '@vetcall/shared/locales';
import { changeLanguage, currentLocale } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';

/**
 * The language switcher of the login screen (docs/product-rules.md#login-and-account: shown only outside production).
 * The browser's own select: Mantine's Select would bring its popover and positioning code to the login page,
 * whose JavaScript budget is 150 KB gzip (issue 16).
 */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useSearchParams();
  return (
    <NativeSelect
      label={t('languages.label')}
      data={LOCALES.map((locale: Locale) => ({ value: locale, label: t(`languages.${locale}`) }))}
      value={normalizeLocale(i18n.language) ?? currentLocale()}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (!isLocale(value)) return;
        changeLanguage(value)
          .then(() => {
            // Keep a ?lang= in the address in step with the choice, so a reload shows the same language.
            if (search.has('lang'))
              setSearch((current) => ({ ...Object.fromEntries(current), lang: value }), { replace: true });
          })
          .catch(() => notifyError(t('errors.network_error')));
      }}
      w={200}
      size="xs"
    />
  );
}
