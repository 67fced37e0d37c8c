/**
 * The logo Jitsi shows in the room: the web app's favicon, served from the app's own origin. The branding
 * route names it, and the security headers let the Jitsi origin load it.
 */
export const JITSI_LOGO_PATH = '/favicon.svg';
