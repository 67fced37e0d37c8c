import { type AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail extends Email {
  envelopeTo: string[];
}

/** A real SMTP server on a free loopback port that keeps what it receives, parsed. */
export async function startSmtpTestServer() {
  const received: ReceivedMail[] = [];
  const waiters: { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];

  const makeServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks))
            .then((email) => {
              const mail = { ...email, envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) };
              received.push(mail);
              for (const waiter of [...waiters]) {
                if (waiter.predicate(mail)) {
                  waiters.splice(waiters.indexOf(waiter), 1);
                  waiter.resolve(mail);
                }
              }
              callback();
            })
            .catch(callback);
        });
      },
    });
  let server = makeServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Resolves with the first message (already received or arriving) that matches. */
    waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail arrived')), timeoutMs);
        waiters.push({
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    /** Stops listening, as a mail server that went down: senders get a refused connection. */
    stop: closeServer,
    /** Listens again on the same port, keeping what was received. */
    async start() {
      server = makeServer();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: closeServer,
  };
}
