// /_dev/*: the dev outbox (codes and links that would have been sent) and project creation for tests.
// Development only (server/dev/index.ts mounts it).
import type { Hono } from 'hono';
import { projectBuilder } from '../config/projectConfig.ts';
import { normalizedRecipient } from '../flow/identifierRules.ts';
import type { OutboxMessage } from '../store/OutboxRepo.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from '../http/AppEnv.ts';
import { ApiError } from '../ApiError.ts';
import { escapeHtml } from '../http/html.ts';
import { readJson } from '../http/requestContext.ts';

const OUTBOX_REFRESH_MS = 3_000;

function toWire(m: OutboxMessage) {
  return {
    id: m.id,
    projectId: m.projectId,
    channel: m.channel,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html !== undefined ? { html: m.html } : {}),
    ...(m.code !== undefined ? { code: m.code } : {}),
    ...(m.link !== undefined ? { link: m.link } : {}),
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

/** A message as GET /_dev/messages answers it (the end-to-end tests and the server tests read these). */
export type OutboxWireMessage = ReturnType<typeof toWire>;

/** How the outbox page shows a message: an e-mail's HTML as its recipient sees it, else its text. */
function rendered(m: OutboxMessage): string {
  // srcdoc takes the document escaped for the attribute; sandbox without allow-scripts runs none of it,
  // and without allow-same-origin it cannot reach this page. Links open in a new tab, as from a mail
  // client (a base target added to the head, allow-popups), where the linked page runs normally.
  if (m.html !== undefined) {
    const doc = m.html.replace('<head>', '<head><base target="_blank">');
    return `<iframe class="mail" title="${escapeHtml(m.subject)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(doc)}"></iframe>
<details><summary>Plain text</summary><pre>${escapeHtml(m.text)}</pre></details>`;
  }
  return `<pre>${escapeHtml(m.text)}</pre>`;
}

/** Refreshes every few seconds and keeps the scroll position (sessionStorage); nothing else. */
const REFRESH_SCRIPT = `addEventListener('load',()=>{const k='outbox-scroll';scrollTo(0,+sessionStorage.getItem(k)||0);
setInterval(()=>{sessionStorage.setItem(k,String(scrollY));location.reload()},${OUTBOX_REFRESH_MS})});`;

/** How many messages the outbox page shows, the newest first. */
const OUTBOX_PAGE_SIZE = 50;

function outboxPage(messages: OutboxMessage[], project?: string): string {
  const rows = messages
    .map((m) => {
      const link = m.link ? `<a href="${escapeHtml(m.link)}">open link</a>` : '';
      return `<tr><td>${escapeHtml(new Date(m.createdAt).toISOString())}</td><td>${escapeHtml(m.projectId)}</td><td>${m.channel}</td>
<td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.subject)}</td><td><code>${escapeHtml(m.code ?? '')}</code> ${link}</td>
<td>${rendered(m)}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title>
<noscript><meta http-equiv="refresh" content="${OUTBOX_REFRESH_MS / 1000}"></noscript>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:.4rem;vertical-align:top;text-align:left}pre{margin:0;white-space:pre-wrap}
iframe.mail{width:520px;max-width:100%;height:520px;border:1px solid #ddd;background:#fff}</style></head>
<body><h1>Dev outbox${project ? ` of ${escapeHtml(project)}` : ''}</h1><p>${messages.length} message(s), newest first (at most ${OUTBOX_PAGE_SIZE}; <code>?project=pro-N</code> shows one project's), refreshed every ${OUTBOX_REFRESH_MS / 1000} s. JSON: <a href="/_dev/messages">/_dev/messages?to=…</a></p>
<table><thead><tr><th>Sent</th><th>Project</th><th>Channel</th><th>To</th><th>Subject</th><th>Code / link</th><th>Message</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="7">No messages yet.</td></tr>'}
</tbody></table>
<script>${REFRESH_SCRIPT}</script></body></html>`;
}

export function registerDevRoutes(app: Hono<AppEnv>, store: Store, demoOrigin: string, now: () => number): void {
  app.get('/_dev/messages', async (c) => {
    const to = c.req.query('to');
    return c.json((await store.outbox.list(to ? { recipientNormalized: normalizedRecipient(to) } : {})).map(toWire));
  });

  app.get('/_dev', (c) => c.redirect('/_dev/'));
  // ?project= shows one project's messages; the page holds the newest OUTBOX_PAGE_SIZE (each e-mail is a
  // frame, and the page reloads every few seconds), the JSON more
  app.get('/_dev/', async (c) => {
    const project = c.req.query('project') || undefined;
    return c.html(outboxPage(await store.outbox.list(project ? { projectId: project } : {}, OUTBOX_PAGE_SIZE), project));
  });

  app.post('/_dev/projects', async (c) => {
    const body = await readJson(c);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.invalidRequest('The body must be a JSON object');
    if ('id' in body) throw ApiError.invalidRequest('The id is chosen by the server', [{ field: 'id', message: 'must not be given' }]);
    const config = await store.projects.create(projectBuilder(body, demoOrigin), now());
    return c.json({ id: config.id }, 201);
  });
}
