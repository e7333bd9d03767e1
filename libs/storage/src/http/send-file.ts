import { StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { StoredFile } from '../file-storage';
import { contentDisposition } from './file-name';

export interface FileAnswer {
  file: StoredFile;
  /** Offered as download under this name (Content-Disposition: attachment). */
  downloadName?: string;
  cacheControl: string;
}

/** Strong ETag from the content hash; a weak one for objects stored without metadata. */
export function etagOf(file: Pick<StoredFile, 'sha256' | 'size' | 'lastModified'>): string {
  return file.sha256
    ? `"${file.sha256.slice(0, 32)}"`
    : `W/"${file.size.toString(16)}-${file.lastModified.getTime().toString(16)}"`;
}

/** RFC 9110 If-None-Match: weak comparison, `*` matches anything. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * Writes the headers of a stored file and returns its body, or answers 304 without a body when
 * the client's copy is current. `nosniff` and a sandboxing CSP keep an uploaded HTML or SVG from
 * running as a page of this origin.
 */
export function sendStoredFile(
  res: FastifyReply,
  answer: FileAnswer,
  ifNoneMatch: string | undefined,
): StreamableFile | undefined {
  const { file } = answer;
  const etag = etagOf(file);
  res.header('ETag', etag);
  res.header('Cache-Control', answer.cacheControl);
  res.header('Last-Modified', file.lastModified.toUTCString());
  res.header('X-Content-Type-Options', 'nosniff');
  res.header('Content-Security-Policy', "default-src 'none'; sandbox");
  if (matchesEtag(ifNoneMatch, etag)) {
    file.stream.destroy();
    res.status(304);
    return undefined;
  }
  res.header('Content-Type', file.contentType);
  res.header('Content-Length', String(file.size));
  if (answer.downloadName) {
    res.header('Content-Disposition', contentDisposition(answer.downloadName));
  }
  return new StreamableFile(file.stream);
}
