#!/usr/bin/env node
// The development mailbox of `npm start`: an SMTP server (smtp-server) that accepts every mail
// (no TLS, no authentication needed), stores it as an .eml file, and a small web page listing the
// mails with subject, recipients, text and downloadable attachments. So a newcomer sees the
// invitation mail and the invoice PDF without an account anywhere.
//
//   node tools/dev/mailbox.mjs [--smtp-port 2525] [--http-port 8025] [--dir .data/mails] [--host 127.0.0.1]
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Stored mails are named `<time>-<random>.eml`; nothing else is ever served. */
const FILE = /^\d{13}-[0-9a-f]{8}\.eml$/;
/** Mails larger than this are refused (552): a development box, not a mail archive. */
const MAX_SIZE = 25 * 1024 * 1024;

const escape = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const listen = (server, port, host) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve(server.address().port);
    });
  });

/** The ids (file names without .eml) of the stored mails, newest first. */
async function storedMails(dir) {
  const names = (await readdir(dir).catch(() => [])).filter((n) => FILE.test(n));
  return names
    .sort()
    .reverse()
    .map((n) => n.slice(0, -4));
}

async function parse(dir, id) {
  return simpleParser(await readFile(path.join(dir, `${id}.eml`)));
}

const addresses = (a) => (a ? (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ') : '');

function page(title, body) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;width:100%}
td,th{padding:.4em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}small{color:#666}</style></head>
<body>${body}</body></html>`;
}

async function listPage(dir) {
  const rows = [];
  for (const name of await storedMails(dir)) {
    const m = await parse(dir, name).catch(() => null);
    if (!m) continue;
    const files = m.attachments
      .map(
        (a, i) =>
          `<a href="/mails/${name}/attachments/${i}">${escape(a.filename ?? `file ${i + 1}`)}</a>`,
      )
      .join('<br>');
    rows.push(
      `<tr><td><small>${escape(m.date?.toISOString() ?? '')}</small></td><td>${escape(addresses(m.to))}</td>` +
        `<td><a href="/mails/${name}">${escape(m.subject ?? '(no subject)')}</a></td><td>${files}</td></tr>`,
    );
  }
  return page(
    'Mailbox',
    `<h1>Mailbox</h1><p><small>Every mail sent to this development SMTP server, newest first. Stored in ${escape(dir)}.</small></p>` +
      (rows.length
        ? `<table><tr><th>Received</th><th>To</th><th>Subject</th><th>Attachments</th></tr>${rows.join('')}</table>`
        : '<p>No mails yet.</p>'),
  );
}

async function mailPage(dir, name) {
  const m = await parse(dir, name);
  const files = m.attachments
    .map(
      (a, i) =>
        `<li><a href="/mails/${name}/attachments/${i}">${escape(a.filename ?? `file ${i + 1}`)}</a> <small>${escape(a.contentType)}, ${a.size} bytes</small></li>`,
    )
    .join('');
  return page(
    m.subject ?? 'Mail',
    `<p><a href="/">&larr; all mails</a> &middot; <a href="/mails/${name}.eml">raw .eml</a></p>` +
      `<h1>${escape(m.subject ?? '(no subject)')}</h1>` +
      `<p>From: ${escape(addresses(m.from))}<br>To: ${escape(addresses(m.to))}<br>Date: ${escape(m.date?.toISOString() ?? '')}<br>Message-ID: ${escape(m.messageId ?? '')}</p>` +
      `<pre>${escape(m.text ?? '')}</pre>` +
      (files ? `<h2>Attachments</h2><ul>${files}</ul>` : ''),
  );
}

function handler(dir) {
  return async (req, res) => {
    const send = (status, type, body, headers = {}) => {
      res.writeHead(status, { 'Content-Type': type, ...headers });
      res.end(body);
    };
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const parts = url.pathname.split('/').filter(Boolean);
      if (req.method !== 'GET') return send(405, 'text/plain', 'GET only');
      if (parts.length === 0) return send(200, 'text/html; charset=utf-8', await listPage(dir));
      if (parts[0] === 'mails.json' && parts.length === 1) {
        const list = [];
        for (const name of await storedMails(dir)) {
          const m = await parse(dir, name).catch(() => null);
          if (m)
            list.push({
              id: name,
              subject: m.subject ?? null,
              to: addresses(m.to),
              date: m.date?.toISOString() ?? null,
              attachments: m.attachments.map((a) => a.filename ?? null),
            });
        }
        return send(200, 'application/json', JSON.stringify(list));
      }
      if (parts[0] !== 'mails' || !parts[1]) return send(404, 'text/plain', 'not found');
      // /mails/<id>.eml: the raw mail; /mails/<id>: its page; /mails/<id>/attachments/<i>.
      const raw = parts.length === 2 && parts[1].endsWith('.eml');
      const file = raw ? parts[1] : `${parts[1]}.eml`;
      if (!FILE.test(file)) return send(404, 'text/plain', 'not found');
      const bytes = await readFile(path.join(dir, file)).catch(() => null);
      if (!bytes) return send(404, 'text/plain', 'not found');
      if (raw) {
        return send(200, 'message/rfc822', bytes, {
          'Content-Disposition': `attachment; filename="${file}"`,
        });
      }
      const id = parts[1];
      if (parts.length === 2) return send(200, 'text/html; charset=utf-8', await mailPage(dir, id));
      if (parts.length === 4 && parts[2] === 'attachments' && /^\d+$/.test(parts[3])) {
        const m = await simpleParser(bytes);
        const a = m.attachments[Number(parts[3])];
        if (!a) return send(404, 'text/plain', 'not found');
        const fileName = (a.filename ?? `attachment-${parts[3]}`).replace(
          /[^\x20-\x7e]|["\\]/g,
          '_',
        );
        return send(200, a.contentType || 'application/octet-stream', a.content, {
          'Content-Disposition': `attachment; filename="${fileName}"`,
        });
      }
      return send(404, 'text/plain', 'not found');
    } catch (err) {
      send(500, 'text/plain', String(err?.message ?? err));
    }
  };
}

/**
 * Starts the mailbox: SMTP on `smtpPort`, the page on `httpPort` (0: a free port each), mails in
 * `dir`. Resolves with the ports and `stop()`.
 */
export async function startMailbox({ smtpPort = 2525, httpPort = 8025, dir, host = '127.0.0.1' }) {
  await mkdir(dir, { recursive: true });
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    size: MAX_SIZE,
    onData(stream, _session, callback) {
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      const partial = path.join(dir, `.${name}.part`);
      const out = createWriteStream(partial);
      stream.pipe(out);
      stream.on('error', callback);
      out.on('error', callback);
      out.on('finish', () => {
        if (stream.sizeExceeded) {
          const err = new Error('message too large');
          err.responseCode = 552;
          return callback(err);
        }
        // Renamed when complete: the page never shows half a mail.
        rename(partial, path.join(dir, name)).then(() => callback(), callback);
      });
    },
  });
  smtp.on('error', () => undefined); // a client's broken connection
  const web = http.createServer(handler(dir));
  const smtpBound = await listen(smtp.server, smtpPort, host);
  let httpBound;
  try {
    httpBound = await listen(web, httpPort, host);
  } catch (err) {
    await new Promise((r) => smtp.close(r));
    throw err;
  }
  return {
    smtpPort: smtpBound,
    httpPort: httpBound,
    smtpUrl: `smtp://${host}:${smtpBound}`,
    pageUrl: `http://${host}:${httpBound}/`,
    stop: () =>
      Promise.all([
        new Promise((r) => smtp.close(r)),
        new Promise((r) => {
          web.closeAllConnections?.();
          web.close(() => r());
        }),
      ]).then(() => undefined),
  };
}

function argValue(argv, name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const box = await startMailbox({
    smtpPort: Number(argValue(argv, '--smtp-port', '2525')),
    httpPort: Number(argValue(argv, '--http-port', '8025')),
    dir: path.resolve(argValue(argv, '--dir', '.data/mails')),
    host: argValue(argv, '--host', '127.0.0.1'),
  });
  console.log(`mailbox: SMTP ${box.smtpUrl}, page ${box.pageUrl}`);
  const stop = () => box.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
