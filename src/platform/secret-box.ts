import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest for the few secrets Vitrine must be able to read back (token-signing private
 * keys). AES-256-GCM from node:crypto, with a key derived from the master secret by HKDF-SHA256
 * and a purpose label, so one master secret never encrypts two kinds of data with the same key.
 * Sealed values read `v1.<iv>.<tag>.<ciphertext>` (base64url), and authenticate `purpose` too:
 * a value sealed for one purpose cannot be opened as another.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Throws `SecretBoxError` when the value was not sealed with this master secret. */
  open(sealed: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function createSecretBox(masterSecret: Buffer, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', masterSecret, Buffer.alloc(0), `vitrine:${purpose}`, 32));
  const aad = Buffer.from(purpose);
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new SecretBoxError('not a sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(aad);
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(
          'a stored secret cannot be decrypted with this MASTER_SECRET (was it changed, or do instances differ?)',
        );
      }
    },
  };
}

/**
 * The master secret: `MASTER_SECRET` when configured, otherwise `$DATA_DIR/master.key`, created
 * on first use with 32 random bytes and mode 0600 (the embedded default needs no set-up step).
 */
export function loadMasterSecret(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'master.key');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const bytes = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (bytes.length < 32) throw new Error(`${file} does not hold a 32-byte base64 secret`);
  return bytes;
}
