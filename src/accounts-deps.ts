import path from 'node:path';
import type { Logger } from 'pino';
import { type AccountRecovery, createAccountRecovery } from './accounts/recovery.js';
import { createSecondFactors, type SecondFactors } from './accounts/second-factor.js';
import { createSecondFactorStore } from './accounts/second-factor-store.js';
import { createAccountTokenStore } from './accounts/token-store.js';
import type { AuditLog } from './audit/service.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { DeveloperService } from './developers/service.js';
import { origins } from './http/urls.js';
import { createMailer, type Mailer } from './mail/service.js';
import { createOutboxStore } from './mail/store.js';
import { folderTransport, smtpTransport } from './mail/transport.js';
import type { OperatorService } from './operators/service.js';
import type { Clock } from './platform/clock.js';
import { createSecretBox } from './platform/secret-box.js';
import type { SessionService } from './sessions/service.js';
import type { UserService } from './users/service.js';

/**
 * The accounts part of the composition root (issue 27), called once by `createDeps` (deps.ts)
 * with the services it already built: the mailer (outbox, SMTP or `.eml` folder) and the
 * password-reset and email-verification service.
 */
export interface AccountDeps {
  /** Mail through an outbox, sent after commit (`SMTP_URL`, else `.eml` files). */
  mailer: Mailer;
  /** Password reset and email verification for every kind of account. */
  accountRecovery: AccountRecovery;
  /** Two-factor sign-in (TOTP, recovery codes) for every kind of account. */
  secondFactors: SecondFactors;
}

export function createAccountDeps(
  config: Config,
  o: { db: Database; clock: Clock; logger: Logger; masterSecret: Buffer },
  services: {
    developers: DeveloperService;
    operators: OperatorService;
    users: UserService;
    sessions: SessionService;
    audit: AuditLog;
  },
): AccountDeps {
  const { db, clock, logger } = o;
  const mailer = createMailer({
    store: createOutboxStore(db),
    transport: config.smtpUrl
      ? smtpTransport(config.smtpUrl)
      : folderTransport(path.join(config.dataDir, 'outbox'), logger),
    box: createSecretBox(o.masterSecret, 'mail-outbox'),
    clock,
    logger,
    from: config.mailFrom,
  });
  const accountRecovery = createAccountRecovery({
    ...services,
    tokens: createAccountTokenStore(db),
    transaction: (fn) => db.transaction(fn),
    mailer,
    clock,
    origins: origins(config),
  });
  const secondFactors = createSecondFactors({
    store: createSecondFactorStore(db),
    box: createSecretBox(o.masterSecret, 'second-factor'),
    stepBox: createSecretBox(o.masterSecret, 'second-factor-step'),
    clock,
    audit: services.audit,
  });
  return { mailer, accountRecovery, secondFactors };
}
