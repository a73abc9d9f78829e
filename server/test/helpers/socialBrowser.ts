/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A browser in a social sign-in, over plain HTTP: the widget's calls (with the binding cookie the
// start sets on the API's origin), the provider simulator's consent page as a person fills it in, and
// the provider's redirect to the callback.
import { expect } from 'vitest';
import { Client, DEMO_ORIGIN } from './testServer.ts';

export type Provider = 'google' | 'microsoft' | 'github';

export const WITH_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: false };
export const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false };
export const RETURN_URL = `${DEMO_ORIGIN}/`;

/** What the person does on the provider's page. */
export interface ConsentAnswer {
  email?: string;
  name?: string;
  /** what the provider says about the address (Google email_verified, Microsoft xms_edov, GitHub verified); default: the page's */
  vouched?: boolean;
  /** a wrong answer for the simulator to give (the page's "Answer the app" choice) */
  fault?: string;
  action?: 'allow' | 'deny';
}

function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

/** The hidden fields of the consent form, as a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  return fields;
}

export async function get(url: string, cookie?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual', ...(cookie ? { headers: { Cookie: cookie } } : {}) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Opens the provider's consent page and submits it; returns where the provider sends the browser. */
export async function consent(oauthUrl: string, answer: ConsentAnswer = {}): Promise<URL> {
  const page = await get(oauthUrl);
  expect(page.status, page.text.slice(0, 500)).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)![1]!;
  const vouched = answer.vouched ?? /name="vouched" value="yes" checked/.test(page.text);
  const form = new URLSearchParams({
    ...hiddenFields(page.text),
    email: answer.email ?? 'ada.lovelace@example.com',
    name: answer.name ?? 'Ada Lovelace',
    ...(vouched ? { vouched: 'yes' } : {}),
    fault: answer.fault ?? '',
    action: answer.action ?? 'allow',
  });
  const res = await fetch(new URL(unescapeHtml(action), oauthUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(res.status, await res.clone().text()).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** One browser: a widget tab on the demo page, and the cookies the API set in it. */
export class SocialBrowser extends Client {
  cookies = new Map<string, string>();

  get cookieHeader(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  override async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = this.cookieHeader;
    const res = await super.request<T>(method, path, body, { ...(cookie ? { Cookie: cookie } : {}), ...headers });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }

  /** social/verify/start; answers the block with `socialData.oauthUrl`. */
  async startSocial(provider: Provider = 'google', authType: 'signup' | 'login' = 'signup', signupFields?: unknown): Promise<any> {
    const block = await this.step('/v2/auth/social/verify/start', { providerType: provider, redirectUrl: RETURN_URL, authType, signupFields });
    expect(block.data.socialData.status, JSON.stringify(block.data)).toBe('started');
    return block;
  }

  /** The provider's redirect, followed in this browser (with its cookies). */
  callback(url: URL | string): Promise<{ status: number; text: string; headers: Headers }> {
    return get(url.toString(), this.cookieHeader);
  }

  /** The whole round trip up to the process saying it finished: start, consent, callback, back on the page. */
  async roundTrip(provider: Provider, answer: ConsentAnswer, authType: 'signup' | 'login' = 'signup', signupFields?: unknown): Promise<any> {
    const started = await this.startSocial(provider, authType, signupFields);
    const back = await this.callback(await consent(started.data.socialData.oauthUrl, answer));
    expect(back.status, back.text.slice(0, 300)).toBe(302);
    expect(back.headers.get('location')).toBe(RETURN_URL);
    return this.getStep('/v2/auth/process');
  }
}

/** A new browser on the demo page, the process initialised; `signIn` then runs the round trip and finish. */
export async function socialSignIn(
  baseUrl: string,
  projectId: string,
  answer: ConsentAnswer,
  options: { provider?: Provider; authType?: 'signup' | 'login'; passkeys?: boolean; signupFields?: unknown } = {},
): Promise<{ client: SocialBrowser; finished: any }> {
  const client = new SocialBrowser(baseUrl, projectId);
  await client.init(options.passkeys ? WITH_PASSKEYS : WITHOUT_PASSKEYS, options.authType === 'login' ? 'login-init' : 'signup-init');
  const resumed = await client.roundTrip(options.provider ?? 'google', answer, options.authType, options.signupFields);
  expect(resumed.data.socialData.status).toBe('finished');
  expect(resumed.data.error, JSON.stringify(resumed.data.error)).toBeUndefined();
  return { client, finished: await client.step('/v2/auth/social/verify/finish', {}) };
}
