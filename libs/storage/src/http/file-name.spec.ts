import { contentDisposition, normalizeContentType, sanitizeFileName } from './file-name';

describe('sanitizeFileName', () => {
  it.each([
    ['Angebot 2024.pdf', 'Angebot 2024.pdf'],
    ['C:\\Users\\anna\\Desktop\\Vertrag.docx', 'Vertrag.docx'],
    ['../../etc/passwd', 'passwd'],
    ['..', 'document'],
    ['.htaccess', 'htaccess'],
    ['  report  .pdf. ', 'report .pdf'],
    ['a<b>c:d"e|f?g*h.txt', 'a_b_c_d_e_f_g_h.txt'],
    ['line\r\nbreak\0.txt', 'linebreak.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['CON.txt', '_CON.txt'],
    ['Prüfbericht Über Größe.pdf', 'Prüfbericht Über Größe.pdf'],
    ['', 'document'],
    [undefined, 'document'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  it('composes decomposed umlauts (macOS) into one character each', () => {
    expect(sanitizeFileName('Mu\u0308ller.pdf')).toBe('Müller.pdf');
  });

  it('shortens long names to 255 characters and keeps the extension', () => {
    const name = sanitizeFileName(`${'ä'.repeat(300)}.pdf`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('ää.pdf')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 5987)', () => {
    expect(contentDisposition('Prüfbericht (final) 100%.pdf')).toBe(
      `attachment; filename="Pr_fbericht (final) 100_.pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%28final%29%20100%25.pdf`,
    );
  });

  it('cannot be broken out of by quotes or backslashes', () => {
    expect(contentDisposition('a"b\\c.txt')).toBe(
      `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`,
    );
  });
});

describe('normalizeContentType', () => {
  it('keeps a well-formed type without parameters, lower case', () => {
    expect(normalizeContentType('Application/PDF; name=x.pdf')).toBe('application/pdf');
    expect(
      normalizeContentType(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ),
    ).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('falls back to bytes for anything else', () => {
    for (const bad of [undefined, '', 'pdf', 'text/html\r\nX-Evil: 1', 'a/b/c']) {
      expect(normalizeContentType(bad)).toBe('application/octet-stream');
    }
  });
});
