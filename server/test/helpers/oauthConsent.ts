// The browser's part of a social sign-in against the server's OAuth simulator: the consent page, its
// form submitted, and plain GETs that do not follow redirects.
import { expect } from 'vitest';

function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

/** The hidden fields of the consent form, as a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  return fields;
}

export async function get(url: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Opens the consent page (served by the API itself) and submits it; returns where the provider redirects the browser. */
export async function consent(oauthUrl: string, answer: { email?: string; name?: string; action?: 'allow' | 'deny' } = {}): Promise<URL> {
  const page = await get(oauthUrl);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({
    ...hiddenFields(page.text),
    email: answer.email ?? 'ada.lovelace@example.com',
    name: answer.name ?? 'Ada Lovelace',
    action: answer.action ?? 'allow',
  });
  const url = new URL(oauthUrl);
  const provider = url.pathname.split('/')[3];
  const res = await fetch(`${url.origin}/_dev/oauth/${provider}/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}
