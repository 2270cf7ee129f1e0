import type { AccountRecovery } from '../accounts/recovery.js';
import type { User } from '../users/model.js';
import { ADDRESS_POLICY, type LoginThrottle } from './login-throttle.js';

/**
 * End users' email verification (issue 27, `USER_EMAIL_VERIFICATION`): a sign-up mails the link;
 * with `required`, a user who has not followed it is held back at sign-in (the link is sent
 * again, at most as often as the address throttle allows) instead of being sent on with tokens.
 */
export interface UserVerification {
  /** After a sign-up: mails the link; true when the user must follow it before signing in. */
  signedUp(user: User): Promise<boolean>;
  /** After the right password: true when the user must first confirm the address. */
  holdsBack(user: User, address: string): Promise<boolean>;
  message: string;
}

export function userVerification(deps: {
  mode: 'optional' | 'required';
  recovery: AccountRecovery;
  throttle: LoginThrottle;
}): UserVerification {
  const required = deps.mode === 'required';
  const send = (user: User) =>
    deps.recovery.sendVerification({
      kind: 'user',
      id: user.id,
      email: user.email,
      environment: user.environment,
    });
  return {
    message: 'Confirm your email address first: we have sent you a link. Follow it, then sign in here.',
    async signedUp(user) {
      await send(user);
      return required;
    },
    async holdsBack(user, address) {
      if (!required || user.emailVerifiedAt !== null) return false;
      const subjects = [{ key: `verify-mail:${user.id}|${address}`, policy: ADDRESS_POLICY }];
      if (deps.throttle.retryAfter(subjects) === 0) {
        deps.throttle.failure(subjects);
        await send(user);
      }
      return true;
    },
  };
}
