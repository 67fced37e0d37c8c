import { useTranslation } from 'react-i18next';

/** The id of the element each layout renders its screen's content in, and the skip link's target. */
export const MAIN_CONTENT_ID = 'main';

/**
 * "Skip to main content": the first thing Tab reaches, shown only while focused. It moves focus into the main
 * landmark itself rather than following `#main`, which the router would take for a navigation.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="skip-link"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      {t('nav.skip_to_main')}
    </a>
  );
}
