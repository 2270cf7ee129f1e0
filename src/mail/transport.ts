import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { MailMessage } from './model.js';

/** Where a message goes: an SMTP server (`SMTP_URL`), or an `.eml` file in the outbox folder. */
export interface MailTransport {
  send(id: string, message: MailMessage & { from: string }): Promise<void>;
  close(): void;
}

/** Through nodemailer to `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…:465`). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(_id, message) {
      await transporter.sendMail(message);
    },
    close: () => transporter.close(),
  };
}

/**
 * Without `SMTP_URL`: each message is written as `<id>.eml` under `dir` (the same RFC 5322 text an
 * SMTP server would get), and one log line names the file — never the message, whose links carry
 * secrets.
 */
export function folderTransport(dir: string, logger: Logger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(id, message) {
      const info = (await composer.sendMail(message)) as { message: Buffer };
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${id}.eml`);
      await fs.writeFile(file, info.message, { mode: 0o600 });
      logger.info({ mailId: id, file }, 'no SMTP_URL: mail written to the outbox folder');
    },
    close: () => composer.close(),
  };
}
