import type { Logger } from 'pino';
import type { Queryable } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import type { SecretBox } from '../platform/secret-box.js';
import type { MailMessage } from './model.js';
import type { OutboxStore } from './store.js';
import type { MailTransport } from './transport.js';

/**
 * Mail after commit (issue 27, ADR 0032). `enqueue` writes the message into the outbox inside the
 * caller's transaction, so the mail exists exactly when what it announces does; `drain` sends what
 * is due once the transaction committed, and a timer (`start`) retries what failed, with backoff.
 * A crash between commit and send loses nothing: the next drain, in any process, sends it.
 * Bodies carry links with secrets: they are sealed at rest and dropped once sent.
 */
export interface Mailer {
  enqueue(tx: Queryable, message: MailMessage): Promise<string>;
  /** Sends every message due now; resolves to how many went. */
  drain(): Promise<number>;
  /** Drains in the background (after a commit): errors are logged, the timer retries. */
  kick(): void;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
  pending(): Promise<number>;
}

/** The message the outbox keeps (sealed) besides its recipient and subject. */
interface Body {
  text: string;
  html: string;
}

const LEASE_MS = 60_000;
const BATCH = 50;
/** 30 s, 1 min, 2 min… at most one hour between attempts. */
export const retryDelayMs = (attempts: number) =>
  Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export function createMailer(deps: {
  store: OutboxStore;
  transport: MailTransport;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  from: string;
}): Mailer {
  const { store, clock, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function sendOne(id: string): Promise<boolean> {
    const row = await store.claim(id, clock.now(), LEASE_MS);
    if (!row) return false;
    try {
      const body = JSON.parse(deps.box.open(row.sealed_body)) as Body;
      await deps.transport.send(id, { from: deps.from, to: row.recipient, subject: row.subject, ...body });
      await store.markSent(id, clock.now());
      return true;
    } catch (error) {
      const attempts = row.attempts + 1;
      const message = (error as Error).message ?? String(error);
      await store.markFailed(id, attempts, clock.now() + retryDelayMs(attempts), message);
      logger.warn({ mailId: id, attempts, err: { message } }, 'mail not sent; will retry');
      return false;
    }
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    for (const id of await store.due(clock.now(), BATCH)) if (await sendOne(id)) sent += 1;
    return sent;
  }

  const mailer: Mailer = {
    async enqueue(tx, message) {
      const id = newId('mail');
      await store.insert(tx, {
        id,
        recipient: message.to,
        subject: message.subject,
        sealedBody: deps.box.seal(JSON.stringify({ text: message.text, html: message.html } satisfies Body)),
        at: clock.now(),
      });
      return id;
    },
    async drain() {
      // One drain at a time per process; a second caller waits for it, then drains again.
      while (running) await running.catch(() => 0);
      running = drainOnce();
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
    kick() {
      mailer.drain().catch((error) => logger.warn({ err: error }, 'mail outbox drain failed'));
    },
    start(intervalMs = 10_000) {
      timer ??= setInterval(() => mailer.kick(), intervalMs);
      timer.unref();
      mailer.kick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => 0);
      deps.transport.close();
    },
    pending: () => store.pending(),
  };
  return mailer;
}
