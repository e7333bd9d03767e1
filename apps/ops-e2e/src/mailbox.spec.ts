import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { freePort } from '@crm/testing';
import { ROOT } from './support/esm';

// The development mailbox of `npm start` (tools/dev/mailbox.mjs), run as the launcher runs it:
// a real SMTP client delivers a mail with an attachment; it is stored as an .eml file and shown,
// with the attachment downloadable, on the page.

jest.setTimeout(30_000);

let dir: string;
let child: ChildProcess;
let smtpPort: number;
let page: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mailbox-'));
  smtpPort = await freePort();
  const httpPort = await freePort();
  page = `http://127.0.0.1:${httpPort}`;
  child = spawn(
    process.execPath,
    [
      'tools/dev/mailbox.mjs',
      '--smtp-port',
      String(smtpPort),
      '--http-port',
      String(httpPort),
      '--dir',
      dir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('mailbox:')) resolve();
    });
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => reject(new Error(`mailbox exited (${code}): ${out}`)));
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    await new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  }
  rmSync(dir, { recursive: true, force: true });
});

it('stores a delivered mail as .eml and lists it with its attachment downloadable', async () => {
  const pdf = Buffer.from('%PDF-1.4 invoice RE-1');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort });
  await transport.sendMail({
    from: 'CRM Events <events@crm.localhost>',
    to: 'Ada <ada@example.test>',
    subject: 'Your invoice RE-1 <script>',
    text: 'Hello Ada',
    attachments: [{ filename: 'invoice-RE-1.pdf', content: pdf, contentType: 'application/pdf' }],
  });
  transport.close();

  const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  expect(files).toHaveLength(1);
  expect(readFileSync(path.join(dir, files[0]), 'utf8')).toContain('Subject: Your invoice RE-1');

  const list = await fetch(`${page}/`);
  expect(list.status).toBe(200);
  const html = await list.text();
  expect(html).toContain('Your invoice RE-1 &lt;script&gt;'); // escaped, never markup
  expect(html).toContain('ada@example.test');
  expect(html).toContain('invoice-RE-1.pdf');

  const [mail] = (await (await fetch(`${page}/mails.json`)).json()) as {
    id: string;
    attachments: string[];
  }[];
  expect(mail.attachments).toEqual(['invoice-RE-1.pdf']);
  const view = await (await fetch(`${page}/mails/${mail.id}`)).text();
  expect(view).toContain('Hello Ada');
  const file = await fetch(`${page}/mails/${mail.id}/attachments/0`);
  expect(file.headers.get('content-type')).toBe('application/pdf');
  expect(file.headers.get('content-disposition')).toContain('invoice-RE-1.pdf');
  expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf);
  const raw = await fetch(`${page}/mails/${mail.id}.eml`);
  expect(raw.headers.get('content-type')).toBe('message/rfc822');
});

it('serves nothing but stored mails', async () => {
  for (const p of [
    '/mails/..%2F..%2Fetc%2Fpasswd',
    '/mails/../package.json',
    '/mails/0000000000000-zzzzzzzz',
    '/mails/1/attachments/0',
    '/nothing',
  ]) {
    expect((await fetch(`${page}${p}`)).status).toBe(404);
  }
  expect((await fetch(`${page}/`, { method: 'POST' })).status).toBe(405);
});
