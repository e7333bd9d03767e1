import { execFile } from 'node:child_process';

// pdf-parse (pdfjs) loads its worker with a dynamic import, which jest's VM refuses without
// --experimental-vm-modules: the text is read in a plain node process instead.
const SCRIPT = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  const out = await new PDFParse({ data: Buffer.concat(chunks) }).getText();
  process.stdout.write(out.text);
});`;

/** The text of a PDF, as a reader's copy and paste would give it. */
export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', SCRIPT],
      { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
    child.stdin!.end(pdf);
  });
}
