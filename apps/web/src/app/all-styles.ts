/**
 * All of Mantine's styles, imported by every lazily loaded screen, dialog and the toasts' container, so they
 * arrive with the first of them (first-screen-styles.ts has only what the login page needs).
 */
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
