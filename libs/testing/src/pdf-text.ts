import { spawn } from 'node:child_process';

// pdf-parse (pdf.js) loads its worker with a dynamic import, which jest's module sandbox refuses;
// a plain node process reads the PDF instead. The script gets the PDF on stdin and writes JSON.
const READ_PDF = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  try {
    const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
    const result = await read(parser);
    await parser.destroy();
    process.stdout.write(JSON.stringify(result));
  } catch (err) {
    process.stderr.write(String(err && err.stack || err));
    process.exit(1);
  }
});`;

const TEXT = `
async function read(parser) {
  const result = await parser.getText();
  return { text: result.text, pages: result.total };
}`;

// Each page rendered as a scanner's camera would see it (pdf.js onto @napi-rs/canvas, 2x), its
// QR code read with jsQR; null for a page without one.
const QR_CODES = `
const { createCanvas, loadImage } = require('@napi-rs/canvas');
const jsQR = require('jsqr');
async function read(parser) {
  const shots = await parser.getScreenshot({ scale: 2, imageDataUrl: false });
  const codes = [];
  for (const page of shots.pages) {
    const image = await loadImage(Buffer.from(page.data));
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const pixels = ctx.getImageData(0, 0, image.width, image.height);
    const found = jsQR(pixels.data, image.width, image.height);
    codes.push(found ? found.data : null);
  }
  return codes;
}`;

function readPdf<T>(pdf: Buffer, reader: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', reader + READ_PDF], {
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
      resolve(JSON.parse(out) as T);
    });
    child.stdin.end(pdf);
  });
}

/** The text of a PDF (and its page count), read with pdf-parse: what a reader of the file sees. */
export function pdfText(pdf: Buffer): Promise<{ text: string; pages: number }> {
  return readPdf(pdf, TEXT);
}

/** What a QR scanner reads on each page of a PDF (null: no code found on the page). */
export function pdfQrCodes(pdf: Buffer): Promise<(string | null)[]> {
  return readPdf(pdf, QR_CODES);
}
