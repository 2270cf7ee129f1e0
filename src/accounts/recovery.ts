import { createHash, randomBytes } from 'node:crypto';
import type { AuditLog } from '../audit/service.js';
import type { Queryable } from '../db/database.js';
import type { DeveloperService } from '../developers/service.js';
import type { Mailer } from '../mail/service.js';
import type { OperatorService } from '../operators/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { passwordProblem } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { SessionService } from '../sessions/service.js';
import type { UserService } from '../users/service.js';
import { resetMail, verifyMail } from './mail-texts.js';
import {
  type AccountKind,
  type AccountRef,
  RESET_TTL_MS,
  type TokenProblem,
  type TokenPurpose,
  VERIFY_TTL_MS,
} from './model.js';
import type { AccountTokenStore } from './token-store.js';

/** Where a link of each kind of account lands: the portal, the console, an environment's auth server. */
export interface LinkTarget {
  kind: AccountKind;
  environment?: Environment;
}

export type Checked = { ok: true; account: AccountRef } | { ok: false; problem: TokenProblem };

/**
 * Password reset and email verification for the three kinds of account (issue 27). A link's token
 * is 256 random bits; the database keeps its SHA-256 only, with its purpose, account and expiry,
 * and marks it used once. The mail is written to the outbox in the same transaction as the token
 * and sent after the commit (mail/service.ts). "Forgot password" answers nothing about the email:
 * the caller shows the same page whether an account was found or not.
 */
export interface AccountRecovery {
  requestReset(target: LinkTarget, email: string, options?: { ticket?: string }): Promise<void>;
  /** A reset link for an operator to hand over (`vitrine … reset-link`): not mailed. */
  resetLink(
    target: LinkTarget,
    accountId: string,
  ): Promise<{ link: string; expiresAt: number; account: AccountRef }>;
  checkReset(target: LinkTarget, token: string): Promise<Checked>;
  /** Sets the new password, ends the sessions (an end user's tokens too), audits. */
  completeReset(
    target: LinkTarget,
    token: string,
    password: string,
    ip: string | null,
  ): Promise<Checked & { endedSessions?: number; revokedRefreshTokens?: number }>;
  /** Mails a verification link (sign-up, "send the link again"). */
  sendVerification(account: AccountRef): Promise<void>;
  verify(target: LinkTarget, token: string): Promise<Checked>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function createAccountRecovery(deps: {
  tokens: AccountTokenStore;
  transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;
  mailer: Mailer;
  developers: Pick<DeveloperService, 'findByEmail' | 'get' | 'setPassword' | 'markVerified'>;
  operators: Pick<OperatorService, 'findByEmail' | 'get' | 'setPassword'>;
  users: Pick<UserService, 'findByEmail' | 'get' | 'setPassword' | 'markVerified'>;
  sessions: Pick<SessionService, 'endAll'>;
  audit: AuditLog;
  clock: Clock;
  origins: Record<Environment, string>;
}): AccountRecovery {
  const { clock } = deps;

  function linkFor(target: LinkTarget, purpose: TokenPurpose, token: string, ticket?: string): string {
    const path = { reset: 'reset', verify: 'verify' }[purpose];
    const base =
      target.kind === 'user'
        ? `${deps.origins[target.environment ?? 'production']}/auth/${path}`
        : `${deps.origins.production}/${target.kind === 'developer' ? 'portal' : 'console'}/${path}`;
    const query = new URLSearchParams({ token, ...(ticket ? { ticket } : {}) });
    return `${base}?${query.toString()}`;
  }

  async function findByEmail(target: LinkTarget, email: string): Promise<AccountRef | undefined> {
    if (target.kind === 'developer') {
      const found = await deps.developers.findByEmail(email).catch(() => undefined);
      return found && found.disabledAt === null
        ? { kind: 'developer', id: found.id, email: found.email }
        : undefined;
    }
    if (target.kind === 'operator') {
      const found = await deps.operators.findByEmail(email).catch(() => undefined);
      return found && { kind: 'operator', id: found.id, email: found.email };
    }
    const env = target.environment ?? 'production';
    const found = await deps.users.findByEmail(env, email);
    return found && { kind: 'user', id: found.id, email: found.email, environment: env };
  }

  async function byId(target: LinkTarget, id: string): Promise<AccountRef | undefined> {
    if (target.kind === 'developer') {
      const found = await deps.developers.get(id);
      return found && found.disabledAt === null ? { kind: 'developer', id, email: found.email } : undefined;
    }
    if (target.kind === 'operator') {
      const found = await deps.operators.get(id);
      return found && found.disabledAt === null ? { kind: 'operator', id, email: found.email } : undefined;
    }
    const found = await deps.users.get(id);
    return found &&
      found.state === 'active' &&
      (!target.environment || found.environment === target.environment)
      ? { kind: 'user', id, email: found.email, environment: found.environment }
      : undefined;
  }

  /** A fresh token for the account, written with `then` (the outbox mail) in one transaction. */
  async function issue(
    account: AccountRef,
    purpose: TokenPurpose,
    ttl: number,
    then?: (tx: Queryable, token: string) => Promise<unknown>,
  ) {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    await deps.transaction(async (tx) => {
      // One live link per purpose: asking again retires the previous one.
      await deps.tokens.retire(tx, account.kind, account.id, purpose, now);
      await deps.tokens.insert(tx, {
        hash: sha256(token),
        purpose,
        kind: account.kind,
        accountId: account.id,
        at: now,
        expiresAt: now + ttl,
      });
      await then?.(tx, token);
    });
    return { token, expiresAt: now + ttl };
  }

  async function check(target: LinkTarget, purpose: TokenPurpose, token: string): Promise<Checked> {
    if (!/^[\w-]{43}$/.test(token)) return { ok: false, problem: 'unknown' };
    const found = await deps.tokens.peek(sha256(token), purpose, clock.now());
    if ('problem' in found) return { ok: false, problem: found.problem };
    const account = found.kind === target.kind ? await byId(target, found.accountId) : undefined;
    return account ? { ok: true, account } : { ok: false, problem: 'unknown' };
  }

  /** Marks the token used; false when another request used it first. */
  async function consume(account: AccountRef, purpose: TokenPurpose, token: string): Promise<boolean> {
    return deps.transaction(async (tx) => {
      const used = await deps.tokens.consume(tx, sha256(token), purpose, clock.now());
      if ('problem' in used || used.accountId !== account.id) return false;
      if (purpose === 'reset') await deps.tokens.retire(tx, account.kind, account.id, purpose, clock.now());
      return true;
    });
  }

  const auditActor = (account: AccountRef, ip: string | null) =>
    ({
      kind: account.kind === 'user' ? 'system' : account.kind,
      id: account.id,
      email: account.email,
      ip,
    }) as const;

  return {
    async requestReset(target, email, options = {}) {
      const account = await findByEmail(target, email);
      if (!account) return;
      await issue(account, 'reset', RESET_TTL_MS, (tx, token) =>
        deps.mailer.enqueue(
          tx,
          resetMail(account.kind, account.email, linkFor(target, 'reset', token, options.ticket)),
        ),
      );
      deps.mailer.kick();
    },
    async resetLink(target, accountId) {
      const account = await byId(target, accountId);
      if (!account) throw new UsageError(`no enabled ${target.kind} ${accountId}`, 'not_found');
      const { token, expiresAt } = await issue(account, 'reset', RESET_TTL_MS);
      await deps.audit.record(
        { kind: 'cli', id: null, email: null, ip: null },
        `${account.kind}.reset_link`,
        {
          type: account.kind,
          id: account.id,
        },
      );
      return {
        link: linkFor({ ...target, environment: account.environment }, 'reset', token),
        expiresAt,
        account,
      };
    },
    checkReset: (target, token) => check(target, 'reset', token),
    async completeReset(target, token, password, ip) {
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      const checked = await check(target, 'reset', token);
      if (!checked.ok) return checked;
      const { account } = checked;
      if (!(await consume(account, 'reset', token))) return { ok: false, problem: 'used' };
      let endedSessions = 0;
      let revokedRefreshTokens = 0;
      if (account.kind === 'developer') {
        await deps.developers.setPassword(account.id, password);
        endedSessions = await deps.sessions.endAll('developer', account.id);
      } else if (account.kind === 'operator') {
        await deps.operators.setPassword(account.id, password);
        endedSessions = await deps.sessions.endAll('operator', account.id);
      } else {
        ({ revokedRefreshTokens } = await deps.users.setPassword(account.id, password));
      }
      await deps.audit.record(
        auditActor(account, ip),
        `${account.kind}.password_reset`,
        { type: account.kind, id: account.id },
        {
          endedSessions,
          revokedRefreshTokens,
          ...(account.environment ? { environment: account.environment } : {}),
        },
      );
      return { ok: true, account, endedSessions, revokedRefreshTokens };
    },
    async sendVerification(account) {
      const target = { kind: account.kind, environment: account.environment };
      await issue(account, 'verify', VERIFY_TTL_MS, (tx, token) =>
        deps.mailer.enqueue(tx, verifyMail(account.kind, account.email, linkFor(target, 'verify', token))),
      );
      deps.mailer.kick();
    },
    async verify(target, token) {
      const checked = await check(target, 'verify', token);
      if (!checked.ok) return checked;
      const { account } = checked;
      if (!(await consume(account, 'verify', token))) return { ok: false, problem: 'used' };
      if (account.kind === 'developer') await deps.developers.markVerified(account.id);
      if (account.kind === 'user') await deps.users.markVerified(account.id);
      return checked;
    },
  };
}
