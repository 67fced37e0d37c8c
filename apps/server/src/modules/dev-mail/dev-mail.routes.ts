import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.ts';
import { escapeHtml } from '../../providers/mail/templates.ts';

const MESSAGE_NAME = /^[\w-]+\.eml$/;

/**
 * /dev/mail: the outbox viewer for demo mode (never registered in production). It is a developer
 * tool, so its few labels are English only.
 */
export const devMailRoutes: FastifyPluginAsyncZod<{ outboxDir: string }> = async (app, { outboxDir }) => {
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem;border-radius:6px}a:focus{outline:3px solid #1c7ed6}</style>
</head><body>${body}</body></html>`;

  async function listMessages() {
    const names = await readdir(outboxDir).catch(() => [] as string[]);
    return names
      .filter((name) => MESSAGE_NAME.test(name))
      .sort()
      .reverse();
  }

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const names = (await listMessages()).slice(0, 200);
    const rows = await Promise.all(
      names.map(async (name) => {
        const email = await PostalMime.parse(await readFile(path.join(outboxDir, name)));
        const to = email.to?.map((address) => address.address).join(', ') ?? '';
        return `<tr><td>${escapeHtml(email.date ?? '')}</td><td>${escapeHtml(to)}</td><td><a href="/dev/mail/${name}">${escapeHtml(email.subject ?? '(no subject)')}</a></td></tr>`;
      }),
    );
    const table = rows.length
      ? `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p>No messages yet.</p>';
    return reply
      .type('text/html')
      .send(page('Outbox', `<h1>Outbox</h1><p>Mail the demo server would have sent.</p>${table}`));
  });

  app.get(
    '/:name',
    { schema: { hide: true, params: z.object({ name: z.string().regex(MESSAGE_NAME) }) } },
    async (request, reply) => {
      const raw = await readFile(path.join(outboxDir, request.params.name)).catch(() => {
        throw notFound();
      });
      const email = await PostalMime.parse(raw);
      const linked = escapeHtml(email.text ?? '').replace(
        /https?:\/\/[^\s<]+/g,
        (url) => `<a href="${url}">${url}</a>`,
      );
      const to = email.to?.map((address) => address.address).join(', ') ?? '';
      const attachments = email.attachments.map((file) => escapeHtml(file.filename ?? 'attachment')).join(', ');
      return reply.type('text/html').send(
        page(
          email.subject ?? 'Message',
          `<p><a href="/dev/mail">← Outbox</a></p><h1>${escapeHtml(email.subject ?? '')}</h1>
<p>To: ${escapeHtml(to)}<br>Date: ${escapeHtml(email.date ?? '')}${attachments ? `<br>Attachments: ${attachments}` : ''}</p>
<pre>${linked}</pre>`,
        ),
      );
    },
  );
};
