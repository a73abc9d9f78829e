/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// The browser's part of a social sign-in against the server's OAuth simulator: the consent page, its
// form submitted, plain GETs that do not follow redirects, and the whole round trip of a sign-in
// (social.test.ts, webhooks.test.ts).
import { expect } from 'vitest';
import { Client, DEMO_ORIGIN } from './testServer.ts';

export const WITH_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: false };
export const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false };
export const RETURN_URL = `${DEMO_ORIGIN}/`;
export type Provider = 'google' | 'microsoft' | 'github';

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

export async function startSocial(client: Client, provider: Provider = 'google', authType: 'signup' | 'login' = 'signup', signupFields?: unknown): Promise<any> {
  const block = await client.step('/v2/auth/social/verify/start', { providerType: provider, redirectUrl: RETURN_URL, authType, signupFields });
  expect(block.data.socialData.status).toBe('started');
  return block;
}

/** The whole round trip a browser makes on `baseUrl`'s server: start, consent, callback, back on the page, finish. */
export async function socialSignIn(
  baseUrl: string,
  projectId: string,
  answer: { email: string; name?: string },
  options: { provider?: Provider; authType?: 'signup' | 'login'; passkeys?: boolean; signupFields?: unknown } = {},
): Promise<{ client: Client; finished: any }> {
  const client = new Client(baseUrl, projectId);
  await client.init(options.passkeys ? WITH_PASSKEYS : WITHOUT_PASSKEYS, options.authType === 'login' ? 'login-init' : 'signup-init');
  const started = await startSocial(client, options.provider, options.authType, options.signupFields);
  const callback = await get((await consent(started.data.socialData.oauthUrl, answer)).toString());
  expect(callback.status).toBe(302);
  expect(callback.headers.get('location')).toBe(RETURN_URL);
  const resumed = await client.getStep('/v2/auth/process');
  expect(resumed.data.socialData.status).toBe('finished');
  expect(resumed.data.error).toBeUndefined();
  return { client, finished: await client.step('/v2/auth/social/verify/finish', {}) };
}
