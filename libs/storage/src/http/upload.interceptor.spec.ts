import { NotFoundException } from '@nestjs/common';
import { AppException } from '@crm/errors';
import { FileTooLarge, formFileName, megabytes, uploadError } from './upload.interceptor';

/** An error as @fastify/multipart raises it. */
const fastifyError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('uploadError', () => {
  it("turns the multipart parser's errors into translated AppExceptions under the app's prefix", () => {
    expect(
      uploadError(
        fastifyError('FST_REQ_FILE_TOO_LARGE', 'request file too large'),
        5 * 1024 * 1024,
      ),
    ).toMatchObject({ status: 413, messageKey: 'files.upload.tooLarge', args: { max: '5 MB' } });
    expect(
      uploadError(new FileTooLarge('streamed past the limit'), 1024 * 1024, 'docs.upload'),
    ).toMatchObject({
      status: 413,
      messageKey: 'docs.upload.tooLarge',
    });
    expect(uploadError(fastifyError('FST_FILES_LIMIT', 'reach files limit'), 1)).toMatchObject({
      status: 400,
      messageKey: 'files.upload.oneFile',
    });
    expect(uploadError(new Error('Unexpected end of form'), 1)).toMatchObject({
      status: 400,
      messageKey: 'files.upload.malformed',
      args: { reason: 'Unexpected end of form' },
    });
  });

  it('leaves other errors alone', () => {
    const notFound = new NotFoundException();
    expect(uploadError(notFound, 1)).toBe(notFound);
    const own = AppException.notFound('Company', 'x');
    expect(uploadError(own, 1)).toBe(own);
    const io = fastifyError('EACCES', 'permission denied');
    expect(uploadError(io, 1)).toBe(io);
  });

  it('writes limits in megabytes', () => {
    expect(megabytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(megabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('formFileName', () => {
  it('undoes the form encoding of CR, LF and quotes, and nothing else', () => {
    expect(formFileName('evil%0D%0A.html')).toBe('evil\r\n.html');
    expect(formFileName('a%22b%22.txt')).toBe('a"b".txt');
    expect(formFileName('100%25 sure %20.txt')).toBe('100%25 sure %20.txt');
  });
});
