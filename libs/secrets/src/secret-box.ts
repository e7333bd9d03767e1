import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseSecretsKey, SecretsKeyEntry } from './secrets-key';

/** The version tag every sealed value starts with. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why a stored value cannot be opened: an unknown key id, a malformed or a tampered value. */
export class SecretOpenError extends Error {
  constructor(
    message: string,
    /** The key id the value names, when it names one. */
    readonly keyId?: string,
  ) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/**
 * Seals secrets kept in a database (webhook secrets, private signing keys) with AES-256-GCM under
 * the keys of SECRETS_KEY, so a dump of the database alone reveals none of them.
 *
 * A sealed value is `v1:<keyId>:<iv>:<ciphertext>:<tag>` (base64url, no padding): the key id says
 * which key sealed it, `v1:<keyId>` is authenticated with the ciphertext. The first key of
 * SECRETS_KEY seals; every key opens, so a key rotates without downtime: the new key comes first,
 * the old one stays until every value was sealed again (`reseal`). A value that does not start
 * with `v1:` is a plain value written before sealing existed: `open` returns it as it is and
 * `needsReseal` is true for it (webhook secrets start with `whsec_`, PEM keys with `-----BEGIN`).
 */
export class SecretBox {
  private readonly keys: ReadonlyMap<string, Buffer>;
  /** The id of the key that seals. */
  readonly currentKeyId: string;

  constructor(entries: readonly SecretsKeyEntry[]) {
    if (!entries.length) throw new Error('SecretBox needs at least one key');
    this.keys = new Map(entries.map((e) => [e.keyId, e.key]));
    this.currentKeyId = entries[0]!.keyId;
  }

  /** A box from the text of SECRETS_KEY (`keyId:base64,...`). */
  static fromText(text: string): SecretBox {
    return new SecretBox(parseSecretsKey(text));
  }

  /** The ids of the keys that open, the sealing one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** What every value sealed with the current key starts with (for a query of the others). */
  get currentPrefix(): string {
    return `${VERSION}:${this.currentKeyId}:`;
  }

  /** Whether `value` is sealed (of any key), as opposed to a plain legacy value. */
  static isSealed(value: string): boolean {
    return value.startsWith(`${VERSION}:`);
  }

  /** The id of the key that sealed `value`, null for a plain value. */
  static keyIdOf(value: string): string | null {
    return SecretBox.isSealed(value) ? (value.split(':')[1] ?? null) : null;
  }

  seal(plain: string): string {
    const keyId = this.currentKeyId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(keyId)!, iv);
    cipher.setAAD(Buffer.from(`${VERSION}:${keyId}`, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, keyId, iv, ciphertext, tag]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  /**
   * The clear value: a sealed one opened, a plain legacy one as it is. Throws SecretOpenError for
   * a key id not in SECRETS_KEY (naming it), a malformed value and one that fails authentication.
   */
  open(value: string): string {
    if (!SecretBox.isSealed(value)) return value;
    const parts = value.split(':');
    const keyId = parts[1] ?? '';
    if (parts.length !== 5) throw new SecretOpenError('malformed sealed value', keyId);
    const key = this.keys.get(keyId);
    if (!key)
      throw new SecretOpenError(
        `value sealed with key id "${keyId}", which SECRETS_KEY does not hold (it holds ${this.keyIds
          .map((k) => `"${k}"`)
          .join(', ')}): keep the old key in SECRETS_KEY until every value is sealed again`,
        keyId,
      );
    const [iv, ciphertext, tag] = parts.slice(2).map((p) => Buffer.from(p, 'base64url'));
    if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES)
      throw new SecretOpenError(`malformed sealed value (key id "${keyId}")`, keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv!);
      decipher.setAAD(Buffer.from(`${VERSION}:${keyId}`, 'ascii'));
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(
        `sealed value (key id "${keyId}") fails authentication: altered, or sealed with another key of that id`,
        keyId,
      );
    }
  }

  /** Whether `value` is plain or sealed with a key other than the current one. */
  needsReseal(value: string): boolean {
    return !value.startsWith(this.currentPrefix);
  }

  /** `value` sealed with the current key (unchanged when it already is). */
  reseal(value: string): string {
    return this.needsReseal(value) ? this.seal(this.open(value)) : value;
  }
}
