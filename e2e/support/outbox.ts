import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import PostalMime, { type Email } from 'postal-mime';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

/** Waits for the newest message to `to` that arrived after `since` (and matches, if asked) in the server's outbox. */
export async function waitForMail(
  to: string,
  since: Date,
  timeoutMs = 10_000,
  matching: (email: Email) => boolean = () => true,
): Promise<Email> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = (await readdir(outboxDir()).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
    for (const name of names.reverse()) {
      const email = await PostalMime.parse(await readFile(path.join(outboxDir(), name)));
      const recipients = email.to?.map((a) => a.address?.toLowerCase()) ?? [];
      if (
        recipients.includes(to.toLowerCase()) &&
        email.date &&
        new Date(email.date) >= new Date(since.getTime() - 1000) &&
        matching(email)
      ) {
        return email;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} arrived`);
}

export function firstLink(email: Email, pathPrefix: string): string {
  const match = (email.text ?? '').match(new RegExp(`https?://[^\\s]+${pathPrefix}[^\\s]*`));
  if (!match) throw new Error(`no ${pathPrefix} link in mail: ${email.text}`);
  return match[0];
}
