import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppException } from '@crm/errors';
import { megabytes, uploadError } from './upload.interceptor';

describe('uploadError', () => {
  it("turns multer's errors into translated AppExceptions under the app's key prefix", () => {
    expect(
      uploadError(new PayloadTooLargeException('File too large'), 5 * 1024 * 1024),
    ).toMatchObject({ status: 413, messageKey: 'files.upload.tooLarge', args: { max: '5 MB' } });
    expect(
      uploadError(new BadRequestException('Unexpected file field - image'), 1, 'docs.upload'),
    ).toMatchObject({
      status: 400,
      messageKey: 'docs.upload.unexpectedField',
      args: { field: 'image', expected: 'file' },
    });
    expect(uploadError(new BadRequestException('Too many files'), 1)).toMatchObject({
      messageKey: 'files.upload.oneFile',
    });
    expect(uploadError(new BadRequestException('Unexpected end of form'), 1)).toMatchObject({
      messageKey: 'files.upload.malformed',
      args: { reason: 'Unexpected end of form' },
    });
  });

  it('leaves other errors alone', () => {
    const notFound = new NotFoundException();
    expect(uploadError(notFound, 1)).toBe(notFound);
    const own = AppException.notFound('Company', 'x');
    expect(uploadError(own, 1)).toBe(own);
  });

  it('writes limits in megabytes', () => {
    expect(megabytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(megabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
