import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Actor, AuditLog } from '../audit/service.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/secret-box.js';
import { UsageError } from '../platform/usage-error.js';
import type { AccountKind, AccountRef } from './model.js';
import type { SecondFactorStore } from './second-factor-store.js';

/** What enrolment shows once: the secret (typed by hand), its `otpauth:` URI and a QR code (inline SVG). */
export interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

export type FactorCheck = 'code' | 'recovery_code' | 'invalid';

/**
 * Two-factor sign-in with TOTP (RFC 6238, otplib; issue 27, ADR 0032). The secret is sealed at
 * rest (it must be read back to check codes). A code is accepted for its own 30-second step and
 * one step either side (clock drift), and only once: the last accepted step is stored and a
 * code of that step or an earlier one is refused (no replay, even across processes). Ten
 * recovery codes (80 random bits each) are shown once at enrolment, stored as SHA-256, single use.
 * Enrolment, removal, reset and every recovery-code use are audited.
 */
export interface SecondFactors {
  enrolled(account: AccountRef): Promise<boolean>;
  /** Starts (or restarts) an enrolment; refused when one is confirmed already. */
  begin(account: AccountRef): Promise<Enrolment>;
  /** The pending enrolment's QR code and secret again (a form shown again after a wrong code). */
  pending(account: AccountRef): Promise<Enrolment | null>;
  /** Confirms the enrolment with a first code; the ten recovery codes, or null for a wrong code. */
  confirm(account: AccountRef, code: string, actor: Actor): Promise<string[] | null>;
  /** The second step of a sign-in: a current code or an unused recovery code. */
  check(account: AccountRef, code: string, actor: Actor): Promise<FactorCheck>;
  remainingRecoveryCodes(account: AccountRef): Promise<number>;
  /** By the account itself (`remove`) or by an operator / the CLI (`reset`). */
  remove(account: AccountRef, actor: Actor, how: 'remove' | 'reset'): Promise<boolean>;
  /**
   * The proof, carried by the code form of `/connect` and `/authorize`, that this user gave the
   * right password on this sign-in page (sealed, bound to the page's ticket, 5 minutes).
   */
  sealStep(userId: string, ticket: string): string;
  /** The user id of a valid proof for this ticket, or null. */
  openStep(sealed: string, ticket: string): string | null;
}

const STEP_MS = 5 * 60_000;

const PERIOD = 30;
const ISSUER = 'Vitrine';
const RECOVERY_CODES = 10;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
/** Recovery codes: 16 characters (≈ 79 bits) of letters and digits without look-alikes (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const recoveryCode = () =>
  Array.from(
    { length: 16 },
    (_, i) => `${i > 0 && i % 4 === 0 ? '-' : ''}${RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]}`,
  ).join('');
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[^0-9a-z]/g, '');

export function createSecondFactors(deps: {
  store: SecondFactorStore;
  box: SecretBox;
  /** Seals the password step's proof (another purpose than the secrets). */
  stepBox: SecretBox;
  clock: Clock;
  audit: AuditLog;
}): SecondFactors {
  const { store, clock } = deps;
  const epoch = () => Math.floor(clock.now() / 1000);
  const target = (a: AccountRef) => ({ type: a.kind, id: a.id });
  const label = (a: AccountRef) =>
    a.kind === 'user'
      ? `${a.email} (${a.environment})`
      : `${a.email} (${a.kind === 'developer' ? 'portal' : 'console'})`;

  async function enrolment(account: AccountRef, secret: string): Promise<Enrolment> {
    const uri = generateURI({ issuer: ISSUER, label: label(account), secret });
    const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    return { secret, uri, qrSvg };
  }
  async function verifyCode(secret: string, code: string, afterStep: number) {
    if (!/^\d{6}$/.test(code)) return null;
    const result = await verify({
      secret,
      token: code,
      epoch: epoch(),
      period: PERIOD,
      epochTolerance: PERIOD,
      afterTimeStep: afterStep > 0 ? afterStep : undefined,
    }).catch(() => ({ valid: false as const }));
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }
  const kindOf = (a: AccountRef): AccountKind => a.kind;

  return {
    async enrolled(account) {
      return (await store.get(kindOf(account), account.id))?.confirmedAt != null;
    },
    async begin(account) {
      const secret = generateSecret({ length: 20 });
      if (!(await store.begin(account.kind, account.id, deps.box.seal(secret), clock.now()))) {
        throw new UsageError('two-factor sign-in is already set up; remove it first', 'conflict');
      }
      return enrolment(account, secret);
    },
    async pending(account) {
      const row = await store.get(account.kind, account.id);
      if (!row || row.confirmedAt !== null) return null;
      return enrolment(account, deps.box.open(row.sealedSecret));
    },
    async confirm(account, code, actor) {
      const row = await store.get(account.kind, account.id);
      if (!row || row.confirmedAt !== null) return null;
      const step = await verifyCode(deps.box.open(row.sealedSecret), code.replace(/\s/g, ''), 0);
      if (step === null) return null;
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      const hashes = codes.map((c) => sha256(normaliseRecovery(c)));
      if (!(await store.confirm(account.kind, account.id, clock.now(), step, hashes))) return null;
      await deps.audit.record(actor, `${account.kind}.2fa_enrol`, target(account));
      return codes;
    },
    async check(account, code, actor) {
      const row = await store.get(account.kind, account.id);
      if (!row || row.confirmedAt === null) return 'invalid';
      const compact = code.replace(/\s/g, '');
      if (/^\d{6}$/.test(compact)) {
        const step = await verifyCode(deps.box.open(row.sealedSecret), compact, row.lastStep);
        return step !== null && (await store.advance(account.kind, account.id, step)) ? 'code' : 'invalid';
      }
      const normalised = normaliseRecovery(compact);
      if (normalised.length !== 16) return 'invalid';
      if (!(await store.spendCode(account.kind, account.id, sha256(normalised), clock.now())))
        return 'invalid';
      const remaining = await store.unusedCodes(account.kind, account.id);
      await deps.audit.record(actor, `${account.kind}.recovery_code_used`, target(account), { remaining });
      return 'recovery_code';
    },
    remainingRecoveryCodes: (account) => store.unusedCodes(account.kind, account.id),
    sealStep(userId, ticket) {
      return deps.stepBox.seal(JSON.stringify({ u: userId, t: sha256(ticket), x: clock.now() + STEP_MS }));
    },
    openStep(sealed, ticket) {
      try {
        const step = JSON.parse(deps.stepBox.open(sealed)) as { u: string; t: string; x: number };
        return step.t === sha256(ticket) && step.x > clock.now() ? step.u : null;
      } catch {
        return null;
      }
    },
    async remove(account, actor, how) {
      const removed = await store.remove(account.kind, account.id);
      if (removed) await deps.audit.record(actor, `${account.kind}.2fa_${how}`, target(account));
      return removed;
    },
  };
}
