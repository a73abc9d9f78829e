// /_dev/*: the dev outbox (codes and links that would have been sent) and project creation for tests.
import type { Hono } from 'hono';
import { projectBuilder } from '../config/projectConfig.ts';
import { normalizedRecipient } from '../flow/identifierRules.ts';
import type { OutboxMessage } from '../store/OutboxRepo.ts';
import type { Store } from '../store/Store.ts';
import type { AppEnv } from './AppEnv.ts';
import { ApiError } from '../ApiError.ts';
import { escapeHtml } from './html.ts';
import { readJson } from './requestContext.ts';

function toWire(m: OutboxMessage) {
  return {
    id: m.id,
    projectId: m.projectId,
    channel: m.channel,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.code !== undefined ? { code: m.code } : {}),
    ...(m.link !== undefined ? { link: m.link } : {}),
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

/** A message as GET /_dev/messages answers it (the end-to-end tests and the server tests read these). */
export type OutboxWireMessage = ReturnType<typeof toWire>;

function outboxPage(messages: OutboxMessage[]): string {
  const rows = messages
    .map((m) => {
      const link = m.link ? `<a href="${escapeHtml(m.link)}">open link</a>` : '';
      return `<tr><td>${escapeHtml(new Date(m.createdAt).toISOString())}</td><td>${escapeHtml(m.projectId)}</td><td>${m.channel}</td>
<td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.subject)}</td><td><code>${escapeHtml(m.code ?? '')}</code> ${link}</td>
<td><pre>${escapeHtml(m.text)}</pre></td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:.4rem;vertical-align:top;text-align:left}pre{margin:0;white-space:pre-wrap}</style></head>
<body><h1>Dev outbox</h1><p>${messages.length} message(s), newest first. JSON: <a href="/_dev/messages">/_dev/messages?to=…</a></p>
<table><thead><tr><th>Sent</th><th>Project</th><th>Channel</th><th>To</th><th>Subject</th><th>Code / link</th><th>Text</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="7">No messages yet.</td></tr>'}
</tbody></table></body></html>`;
}

export function registerDevRoutes(app: Hono<AppEnv>, store: Store, demoOrigin: string, now: () => number): void {
  app.get('/_dev/messages', async (c) => {
    const to = c.req.query('to');
    return c.json((await store.outbox.list(to ? normalizedRecipient(to) : undefined)).map(toWire));
  });

  app.get('/_dev', (c) => c.redirect('/_dev/'));
  app.get('/_dev/', async (c) => c.html(outboxPage(await store.outbox.list())));

  app.post('/_dev/projects', async (c) => {
    const body = await readJson(c);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.invalidRequest('The body must be a JSON object');
    if ('id' in body) throw ApiError.invalidRequest('The id is chosen by the server', [{ field: 'id', message: 'must not be given' }]);
    const config = await store.projects.create(projectBuilder(body, demoOrigin), now());
    return c.json({ id: config.id }, 201);
  });
}
