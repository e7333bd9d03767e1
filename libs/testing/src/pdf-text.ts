import { spawn } from 'node:child_process';

// pdf-parse (pdf.js) loads its worker with a dynamic import, which jest's module sandbox refuses;
// a plain node process reads the PDF instead.
const SCRIPT = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  try {
    const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
    const result = await parser.getText();
    await parser.destroy();
    process.stdout.write(JSON.stringify({ text: result.text, pages: result.total }));
  } catch (err) {
    process.stderr.write(String(err && err.stack || err));
    process.exit(1);
  }
});`;

/** The text of a PDF (and its page count), read with pdf-parse: what a reader of the file sees. */
export function pdfText(pdf: Buffer): Promise<{ text: string; pages: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SCRIPT], {
      cwd: __dirname,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pdf-parse failed: ${err}`));
      resolve(JSON.parse(out) as { text: string; pages: number });
    });
    child.stdin.end(pdf);
  });
}
