/** Longest file name kept (the file name columns are VARCHAR(255)). */
export const FILE_NAME_MAX = 255;
const DEFAULT_TYPE = 'application/octet-stream';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
// Control characters, and the invisible ones that can disguise a name ("invoice\u202Efdp.exe").
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * The name a document is kept and offered for download under: the last part of a client path,
 * without control or invisible characters, characters Windows forbids, leading dots or trailing
 * dots and blanks; at most 255 characters with the extension kept. Never empty.
 */
export function sanitizeFileName(raw: string | undefined | null, fallback = 'document'): string {
  let name = (raw ?? '').normalize('NFC').replace(INVISIBLE, '');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (!name) return fallback;
  const chars = [...name];
  if (chars.length <= FILE_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? [...name.slice(dot)] : [];
  return (
    chars
      .slice(0, FILE_NAME_MAX - ext.length)
      .join('')
      .trimEnd() + ext.join('')
  );
}

/**
 * `attachment` with a quoted ASCII fallback name for old clients and the exact name as RFC 5987
 * `filename*` (UTF-8, percent-encoded) for every current one.
 */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment') {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The client's declared media type when it is well-formed (parameters dropped), else bytes. */
export function normalizeContentType(raw: string | undefined | null): string {
  const type = (raw ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,99}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,99}$/.test(type)
    ? type
    : DEFAULT_TYPE;
}
