import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on loopback (smtp-server, issue 27): Vitrine sends to it through nodemailer
 * exactly as to a production relay. Each message is parsed (mailparser) before the server answers
 * `250`, so it is in `inbox` when the sender's call resolves.
 */
export interface TestSmtp {
  url: string;
  inbox: ReceivedMail[];
  /** The last mail to `to`; throws when there is none. */
  lastTo(to: string): ReceivedMail;
  /** The first link of a mail's text under `path` (e.g. `/portal/reset`). */
  linkIn(mail: ReceivedMail, path: string): URL;
  /** Refuse the next `n` messages with a temporary failure (a relay outage). */
  failNext(n: number): void;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const inbox: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (failures > 0) {
            failures -= 1;
            const error = new Error('try again later') as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          inbox.push({
            from: parsed.from?.text ?? '',
            to: to?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          return callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    lastTo(to) {
      const mail = inbox.filter((m) => m.to === to).at(-1);
      if (!mail) throw new Error(`no mail to ${to} (inbox: ${inbox.map((m) => m.to).join(', ')})`);
      return mail;
    },
    linkIn(mail, path) {
      const found = mail.text
        .match(/https?:\/\/\S+/g)
        ?.map((l) => new URL(l))
        .find((u) => u.pathname === path);
      if (!found) throw new Error(`no ${path} link in: ${mail.text}`);
      return found;
    },
    failNext(n) {
      failures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
