import type { Locale } from '@vetcall/shared/locales';
import { translate } from '../../i18n.ts';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** One layout for every email: greeting, paragraphs, an optional button, the signature. */
export function renderEmail(
  locale: Locale,
  content: {
    subject: string;
    name: string;
    paragraphs: string[];
    action?: { label: string; url: string };
    footer?: string;
  },
): RenderedEmail {
  const greeting = translate(locale, 'email.greeting', { name: content.name });
  const signature = translate(locale, 'email.signature');
  const textParts = [greeting, '', ...content.paragraphs.flatMap((p) => [p, ''])];
  if (content.action) textParts.push(`${content.action.label}: ${content.action.url}`, '');
  if (content.footer) textParts.push(content.footer, '');
  textParts.push(signature);

  const paragraphs = content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const action = content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#0b7285;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(content.action.url)}</p>`
    : '';
  const footer = content.footer ? `<p style="font-size:12px;color:#555">${escapeHtml(content.footer)}</p>` : '';
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5;color:#222">
<p>${escapeHtml(greeting)}</p>
${paragraphs}
${action}
${footer}
<p>${escapeHtml(signature)}</p>
</body></html>`;
  return { subject: content.subject, text: textParts.join('\n'), html };
}

export function renderPasswordResetEmail(locale: Locale, values: { name: string; link: string }): RenderedEmail {
  return renderEmail(locale, {
    subject: translate(locale, 'email.password_reset.subject'),
    name: values.name,
    paragraphs: [translate(locale, 'email.password_reset.body')],
    action: { label: translate(locale, 'email.password_reset.action'), url: values.link },
    footer: translate(locale, 'email.password_reset.ignore'),
  });
}
