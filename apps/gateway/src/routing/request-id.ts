import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTABLE = /^[\w.:@/+=-]{1,128}$/;

/**
 * Every call gets an X-Request-Id: the client's when it sent a sane one, a new UUID otherwise.
 * It is passed to the services and returned with the answer, so logs on both sides match.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && ACCEPTABLE.test(sent) ? sent : randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
