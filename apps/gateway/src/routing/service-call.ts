import type { IncomingHttpHeaders } from 'node:http';
import { Duplex, Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/**
 * Bodies and answers up to this size are read whole and sent on in one write; larger ones (and
 * answers of unknown size) stream.
 */
export const BUFFERED_BODY_BYTES = 64 * 1024;

/** The service's answer: status, headers and the body (bytes when small, else a stream). */
export interface ServiceAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer | Readable;
}

/** A large answer's body, read from the service as the client takes it (backpressure). */
class AnswerStream extends Readable {
  ended = false;

  constructor(private readonly controller: Dispatcher.DispatchController) {
    super();
  }

  override _read(): void {
    this.controller.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    // The client left mid-answer: the service stops sending too.
    if (!this.ended) this.controller.abort(err ?? new Error('answer stream destroyed'));
    callback(err);
  }
}

/**
 * One call to a service as an undici dispatch handler. undici's request() wraps every call in an
 * AsyncResource, a Readable and a chain of promises (about a tenth of the gateway's CPU per
 * proxied read in its profile); this handler keeps a small answer's bytes as they arrive and
 * makes a stream only for a large or unsized one.
 *
 * `answer` settles once: with the whole answer (small), with the headers and a stream (large), or
 * with the error that ended the call before any of it could be handed on.
 */
export class ServiceCall implements Dispatcher.DispatchHandler {
  readonly answer: Promise<ServiceAnswer>;
  /** The client went away before the answer was handed on: nobody is waiting for it. */
  clientLeft = false;
  private resolve!: (answer: ServiceAnswer) => void;
  private reject!: (err: Error) => void;
  private controller: Dispatcher.DispatchController | null = null;
  private statusCode = 0;
  private headers: IncomingHttpHeaders = {};
  /** A small answer's body so far (null until the headers of one arrive). */
  private chunks: Buffer[] | null = null;
  private stream: AnswerStream | null = null;

  /** `bufferUpTo`: answers up to this size arrive whole (bytes), larger ones as a stream. */
  constructor(private readonly bufferUpTo = BUFFERED_BODY_BYTES) {
    this.answer = new Promise<ServiceAnswer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** The client went away: stop the service's work, now or as soon as the call starts. */
  cancel(): void {
    this.clientLeft = true;
    this.controller?.abort(new Error('the client closed the connection'));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientLeft) controller.abort(new Error('the client closed the connection'));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // 1xx: informational, the final answer follows
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
    const length = Number(headers['content-length'] ?? NaN);
    if (length <= this.bufferUpTo) {
      this.chunks = [];
      return;
    }
    this.stream = new AnswerStream(controller);
    this.resolve({ statusCode, headers, body: this.stream });
  }

  /** The gateway forwards no Upgrade header (hop-by-hop): a service switching protocols is broken. */
  onRequestUpgrade(
    _controller: Dispatcher.DispatchController,
    _statusCode: number,
    _headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    socket.destroy();
    this.reject(new Error('the service switched protocols unasked'));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks) this.chunks.push(chunk);
    else if (this.stream && !this.stream.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    if (this.stream) {
      this.stream.ended = true;
      this.stream.push(null);
      return;
    }
    const chunks = this.chunks ?? [];
    // the chunks are views of the socket's reads, not of a buffer undici reuses
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    // Mid-stream the client has the headers already: the stream ends with the error. Before
    // that, nothing has gone to the client and the caller can still answer cleanly.
    if (this.stream) this.stream.destroy(err);
    else this.reject(err);
  }
}
