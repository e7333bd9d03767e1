import { PassThrough, type Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BUFFERED_BODY_BYTES, ServiceCall } from './service-call';

/** What undici hands a handler: records pause, resume and abort. */
function controller() {
  const c = {
    paused: false,
    aborted: false,
    reason: null as Error | null,
    pauses: 0,
    resumes: 0,
    abort: jest.fn((reason: Error) => {
      c.aborted = true;
      c.reason = reason;
    }),
    pause: () => {
      c.paused = true;
      c.pauses++;
    },
    resume: () => {
      c.paused = false;
      c.resumes++;
    },
  };
  return c;
}
type FakeController = ReturnType<typeof controller>;
const asController = (c: FakeController) => c as unknown as Dispatcher.DispatchController;

function started(c = controller()) {
  const call = new ServiceCall();
  call.onRequestStart(asController(c));
  return { call, c };
}

describe('ServiceCall: a small answer', () => {
  it('resolves once the whole body has arrived, its chunks in order', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, { 'content-length': '11', 'x-a': '1' });
    call.onResponseData(asController(c), Buffer.from('hello '));
    call.onResponseData(asController(c), Buffer.from('world'));
    let settled = false;
    void call.answer.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    call.onResponseEnd();
    const answer = await call.answer;
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-a']).toBe('1');
    expect(Buffer.isBuffer(answer.body) && answer.body.toString()).toBe('hello world');
  });

  it('an answer of length 0 is an empty buffer', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 204, { 'content-length': '0' });
    call.onResponseEnd();
    const answer = await call.answer;
    expect(Buffer.isBuffer(answer.body) && answer.body.length).toBe(0);
  });

  it('skips informational answers and takes the final one', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 100, {});
    call.onResponseStart(asController(c), 201, { 'content-length': '2' });
    call.onResponseData(asController(c), Buffer.from('{}'));
    call.onResponseEnd();
    expect((await call.answer).statusCode).toBe(201);
  });

  it('rejects when the service breaks off before the end (the caller can still answer 503)', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, { 'content-length': '100' });
    call.onResponseData(asController(c), Buffer.from('partial'));
    call.onResponseError(asController(c), new Error('other side closed'));
    await expect(call.answer).rejects.toThrow('other side closed');
  });

  it('rejects (and closes the socket) when the service switches protocols unasked', async () => {
    const { call, c } = started();
    const socket = new PassThrough();
    call.onRequestUpgrade(asController(c), 101, {}, socket);
    await expect(call.answer).rejects.toThrow('switched protocols');
    expect(socket.destroyed).toBe(true);
  });

  it('rejects when the service cannot be reached at all', async () => {
    const call = new ServiceCall();
    call.onResponseError(asController(controller()), new Error('connect ECONNREFUSED'));
    await expect(call.answer).rejects.toThrow('ECONNREFUSED');
  });
});

describe('ServiceCall: a large or unsized answer', () => {
  const large = String(BUFFERED_BODY_BYTES + 1);

  it('resolves at the headers with a stream, which ends with the last chunk', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, { 'content-length': large });
    const answer = await call.answer;
    const body = answer.body as Readable;
    expect(Buffer.isBuffer(body)).toBe(false);
    call.onResponseData(asController(c), Buffer.from('a'));
    call.onResponseData(asController(c), Buffer.from('b'));
    call.onResponseEnd();
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('ab');
    // the stream ended on its own: the service's call is not aborted afterwards
    expect(c.abort).not.toHaveBeenCalled();
  });

  it('pauses the service while the client is not reading, resumes when it reads', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, {});
    const body = (await call.answer).body as Readable;
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < 4 && !c.paused; i++) call.onResponseData(asController(c), chunk);
    expect(c.pauses).toBe(1);
    body.read();
    await new Promise((r) => setImmediate(r));
    expect(c.resumes).toBeGreaterThan(0);
    body.destroy();
  });

  it('an error mid-answer ends the stream with it', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, {});
    const body = (await call.answer).body as Readable;
    const failed = new Promise((resolve) => body.once('error', resolve));
    call.onResponseError(asController(c), new Error('socket hang up'));
    await expect(failed).resolves.toMatchObject({ message: 'socket hang up' });
  });

  it('destroying the stream before its end (the client left) aborts the call', async () => {
    const { call, c } = started();
    call.onResponseStart(asController(c), 200, {});
    const body = (await call.answer).body as Readable;
    body.destroy();
    await new Promise((r) => setImmediate(r));
    expect(c.abort).toHaveBeenCalledTimes(1);
  });
});

describe('ServiceCall.cancel: the client went away', () => {
  it('aborts a call under way and marks the client gone', () => {
    const { call, c } = started();
    call.cancel();
    expect(c.abort).toHaveBeenCalledTimes(1);
    expect(call.clientLeft).toBe(true);
  });

  it('aborts a call not yet started as soon as it starts', () => {
    const call = new ServiceCall();
    call.cancel();
    const c = controller();
    call.onRequestStart(asController(c));
    expect(c.abort).toHaveBeenCalledTimes(1);
  });
});
