import { createPublicKey, KeyObject, sign, verify } from 'node:crypto';

// The signed ticket code (what the QR code of a ticket holds), verifiable offline with the
// event's public key (ET13). Format, in ASCII (README.md in this folder):
//
//   v1.<keyId>.<payload>.<signature>
//
// payload   base64url (no padding) of 36 bytes: ticket id (16 bytes, the UUID's bytes), event id
//           (16 bytes), validUntil (uint32 big-endian, Unix seconds; 0 = no end).
// signature base64url (no padding) of the 64-byte Ed25519 signature over the ASCII bytes of
//           `v1.<keyId>.<payload>` (version and key id are signed too).
//
// About 150 characters: a QR code of version 8-10 at error correction M.

export const CODE_VERSION = 'v1';
export const CODE_ALGORITHM = 'Ed25519';
/** Longest text taken as a code: anything longer is refused before any parsing. */
export const MAX_CODE_LENGTH = 400;

export interface TicketCodeClaims {
  ticketId: string;
  eventId: string;
  /** Unix seconds; 0: no end. */
  validUntil: number;
}

export interface ParsedTicketCode extends TicketCodeClaims {
  keyId: string;
  /** `v1.<keyId>.<payload>`, the signed text */
  signedText: string;
  signature: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;

const uuidBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (b: Buffer): string => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export function encodePayload(c: TicketCodeClaims): string {
  const buf = Buffer.alloc(36);
  uuidBytes(c.ticketId).copy(buf, 0);
  uuidBytes(c.eventId).copy(buf, 16);
  buf.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.floor(c.validUntil))), 32);
  return buf.toString('base64url');
}

/** Signs the claims with the event's private key (Ed25519: deterministic, same code each time). */
export function signTicketCode(privateKey: KeyObject, keyId: string, c: TicketCodeClaims): string {
  const signedText = `${CODE_VERSION}.${keyId}.${encodePayload(c)}`;
  const signature = sign(null, Buffer.from(signedText, 'ascii'), privateKey);
  return `${signedText}.${signature.toString('base64url')}`;
}

/** Splits a code into its parts; null when it is not a code of this format (no crypto yet). */
export function parseTicketCode(code: unknown): ParsedTicketCode | null {
  if (typeof code !== 'string' || code.length > MAX_CODE_LENGTH) return null;
  const parts = code.trim().split('.');
  if (parts.length !== 4) return null;
  const [version, keyId, payload, sig] = parts;
  if (version !== CODE_VERSION || !KEY_ID.test(keyId)) return null;
  if (!B64URL.test(payload) || !B64URL.test(sig)) return null;
  const bytes = Buffer.from(payload, 'base64url');
  const signature = Buffer.from(sig, 'base64url');
  // a re-encoding must give the same text: no padding bits, no alternative spellings
  if (bytes.length !== 36 || bytes.toString('base64url') !== payload) return null;
  if (signature.length !== 64 || signature.toString('base64url') !== sig) return null;
  return {
    keyId,
    ticketId: uuidText(bytes.subarray(0, 16)),
    eventId: uuidText(bytes.subarray(16, 32)),
    validUntil: bytes.readUInt32BE(32),
    signedText: `${version}.${keyId}.${payload}`,
    signature,
  };
}

/** Whether the signature of a parsed code is the key's. */
export function verifyTicketCode(publicKey: KeyObject, parsed: ParsedTicketCode): boolean {
  try {
    return verify(null, Buffer.from(parsed.signedText, 'ascii'), publicKey, parsed.signature);
  } catch {
    return false;
  }
}

/** The public key from its raw 32 bytes (base64url), as a scanner vendor would import it. */
export function publicKeyFromRaw(raw: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
}

/**
 * Until when a code is valid for an offline scanner: one day after the event's end (else its
 * start); no end (0) when the event has no date yet.
 */
export function validUntilOf(event: { startsAt: Date | null; endsAt: Date | null } | null): number {
  const end = event?.endsAt ?? event?.startsAt ?? null;
  return end ? Math.floor(end.getTime() / 1000) + 86_400 : 0;
}

/**
 * When the event has ended, for the keys rotated away (codes they signed are accepted until
 * then): its end, else one day after its start; null (never) while the event has no date.
 */
export function eventEndOf(
  event: { startsAt: Date | null; endsAt: Date | null } | null,
): Date | null {
  if (event?.endsAt) return event.endsAt;
  return event?.startsAt ? new Date(event.startsAt.getTime() + 86_400_000) : null;
}
