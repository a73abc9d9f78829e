// The simulator's pages: a consent page in each provider's colours, marked "Local simulator", where any
// address and name can be entered together with what the provider says about the address; and the
// error page a provider shows for a request it will not redirect (it never sends the browser back then).
import type { Context } from 'hono';
import type { SocialProvider } from '../config/projectConfig.ts';
import type { AppEnv } from '../http/AppEnv.ts';
import { escapeHtml, htmlDocument, sendHtml } from '../http/html.ts';

interface ProviderLook {
  name: string;
  sample: { email: string; name: string };
  /** the checkbox for what the provider says about the address, and whether a real one usually says it */
  vouch: { label: string; checked: boolean };
  /** the wrong answers a test can ask for, by value */
  faults: Record<string, string>;
  css: string;
}

const BASE_CSS = `*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}
main{width:100%;max-width:28rem;padding:2rem;border-radius:8px}
h1{font-size:1.35rem;margin:.25rem 0 .5rem}p{margin:.5rem 0;line-height:1.4}
.sim{display:inline-block;font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;padding:.2rem .5rem;border-radius:4px}
.brand{font-weight:700;font-size:1.1rem;margin-top:.75rem}
label{display:block;font-size:.85rem;font-weight:600;margin:1rem 0 .3rem}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
input[type=email],input[type=text],select{width:100%;font:inherit;padding:.6rem .7rem;border-radius:4px}
.scopes{font-size:.85rem;margin:.75rem 0 0;padding-left:1.2rem}
.error{padding:.6rem .8rem;border-radius:4px;margin-top:1rem}
.actions{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.55rem 1.2rem;cursor:pointer}
small{display:block;margin-top:1.25rem;font-size:.75rem}code{word-break:break-all}`;

const ID_TOKEN_FAULTS = {
  'id-token-tampered': 'An ID token changed after it was signed (another address)',
  'id-token-nonce': 'An ID token for another nonce',
  'id-token-audience': 'An ID token for another client',
  'id-token-issuer': 'An ID token from another issuer',
  'id-token-expired': 'An expired ID token',
};

export const LOOKS: Record<SocialProvider, ProviderLook> = {
  google: {
    name: 'Google',
    sample: { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' },
    vouch: { label: 'Google has verified this address (email_verified: true)', checked: true },
    faults: ID_TOKEN_FAULTS,
    css: `body{background:#f0f4f9;font-family:Roboto,Arial,sans-serif;color:#1f1f1f}main{background:#fff;border-radius:24px}
.sim{background:#e8f0fe;color:#0b57d0}.brand{color:#0b57d0}input,select{border:1px solid #747775}input:focus,select:focus{outline:2px solid #0b57d0}
button{border-radius:20px;border:0}.primary{background:#0b57d0;color:#fff}.secondary{background:transparent;color:#0b57d0}
.error{background:#fce8e6;color:#b3261e}small{color:#444746}`,
  },
  microsoft: {
    name: 'Microsoft',
    sample: { email: 'grace.hopper@example.com', name: 'Grace Hopper' },
    // only where the app registration asks for the optional claim and the tenant verified the domain
    vouch: { label: 'The tenant owns and verified this address’s domain (xms_edov: true)', checked: false },
    faults: { ...ID_TOKEN_FAULTS, 'id-token-tenant': 'An ID token whose issuer names another tenant than its tid' },
    css: `body{background:#f2f2f2;font-family:"Segoe UI",Tahoma,sans-serif;color:#1b1b1b}main{background:#fff;border-radius:0;box-shadow:0 2px 6px rgba(0,0,0,.2)}
.sim{background:#fff4ce;color:#6b4f00}.brand{color:#5e5e5e}input,select{border:0;border-bottom:1px solid #666;border-radius:0}input:focus,select:focus{outline:none;border-bottom:2px solid #0067b8}
button{border-radius:0;border:0}.primary{background:#0067b8;color:#fff}.secondary{background:#ccc;color:#000}
.error{background:#fde7e9;color:#a80000}small{color:#605e5c}`,
  },
  github: {
    name: 'GitHub',
    sample: { email: 'alan.turing@example.com', name: 'Alan Turing' },
    vouch: { label: 'GitHub has verified this primary address (verified: true in /user/emails)', checked: true },
    faults: { 'token-error': 'Refuse the code with HTTP 200 and an error, GitHub’s way (bad_verification_code)' },
    css: `body{background:#f6f8fa;font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328}main{background:#fff;border:1px solid #d1d9e0;border-radius:6px}
.sim{background:#24292f;color:#fff}.brand{color:#24292f}input,select{border:1px solid #d1d9e0;border-radius:6px}input:focus,select:focus{outline:2px solid #0969da}
button{border-radius:6px;border:1px solid rgba(31,35,40,.15)}.primary{background:#1f883d;color:#fff}.secondary{background:#f6f8fa;color:#24292f}
.error{background:#ffebe9;color:#d1242f;border:1px solid #ff818266}small{color:#59636e}`,
  },
};

/** What the person enters on the consent page. */
export interface ConsentValues {
  email: string;
  name: string;
  vouched: boolean;
  fault: string;
}

/** A provider's page for an authorization request it refuses: no redirect back to the app. */
export function simulatorErrorPage(c: Context<AppEnv>, provider: SocialProvider, error: string, description: string): Response {
  const look = LOOKS[provider];
  const body = `<main>
<span class="sim">Local simulator</span>
<div class="brand">${escapeHtml(look.name)}</div>
<h1>This sign-in request is not valid</h1>
<p class="error" role="alert"><strong>${escapeHtml(error)}</strong>: ${escapeHtml(description)}</p>
<p>The app that sent you here made a mistake. You were not redirected back to it.</p>
</main>`;
  return sendHtml(c, htmlDocument(`${look.name} sign-in error (local simulator)`, body, BASE_CSS + look.css), 400);
}

/**
 * The consent page. `hidden` are the request's parameters (and the HMAC that binds the form to them),
 * posted back to `action`.
 */
export function consentPage(
  c: Context<AppEnv>,
  provider: SocialProvider,
  page: { action: string; clientId: string; redirectUri: string; scope: string; hidden: Record<string, string | undefined> },
  values: ConsentValues,
  problem?: string,
): Response {
  const look = LOOKS[provider];
  const hiddenInputs = Object.entries(page.hidden)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v!)}">`)
    .join('\n');
  const scopes = page.scope
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join('');
  const faults = Object.entries(look.faults)
    .map(([value, label]) => `<option value="${value}"${values.fault === value ? ' selected' : ''}>${escapeHtml(label)}</option>`)
    .join('');
  const body = `<main>
<span class="sim">Local simulator</span>
<div class="brand">${escapeHtml(look.name)}</div>
<h1>Sign in with ${escapeHtml(look.name)}</h1>
<p><strong>${escapeHtml(page.clientId)}</strong> wants to know who you are. It will receive your e-mail address and name.</p>
<ul class="scopes" aria-label="Requested scopes">${scopes}</ul>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="${escapeHtml(page.action)}">
${hiddenInputs}
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="off" value="${escapeHtml(values.email)}">
<label for="name">Full name</label>
<input id="name" name="name" type="text" maxlength="100" autocomplete="off" value="${escapeHtml(values.name)}">
<label class="check"><input type="checkbox" name="vouched" value="yes"${values.vouched ? ' checked' : ''}> <span>${escapeHtml(look.vouch.label)}</span></label>
<label for="fault">Answer the app (for tests)</label>
<select id="fault" name="fault"><option value="">Correctly</option>${faults}</select>
<div class="actions">
<button class="secondary" type="submit" name="action" value="deny" formnovalidate>Cancel</button>
<button class="primary" type="submit" name="action" value="allow">Continue</button>
</div>
</form>
<small>This page stands in for ${escapeHtml(look.name)} on this machine; nothing is sent anywhere else.
You will return to <code>${escapeHtml(new URL(page.redirectUri).origin)}</code>.</small>
</main>`;
  return sendHtml(c, htmlDocument(`Sign in with ${look.name} (local simulator)`, body, BASE_CSS + look.css), problem ? 400 : 200);
}
