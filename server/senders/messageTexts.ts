// The texts of the e-mails and SMS the server sends, per project language. E-mails have an HTML part
// (inline styles only, for mail clients) and a plain-text alternative; SMS end with the origin-bound
// line (`@host #code`) that lets a phone offer the code only on the project's site (WebOTP).
import { escapeHtml } from '../http/html.ts';

export type Language = 'en' | 'de';

export interface MessageText {
  subject: string;
  text: string;
  /** e-mails only: the HTML part */
  html?: string;
}

/** What an e-mail shows of its project. */
export interface EmailBrand {
  language: Language;
  appName: string;
  /** `#rrggbb`: the top bar, the app's name and the button */
  emailAccentColor?: string;
  /** an https URL of an image shown above the app's name */
  emailLogoUrl?: string;
}

const DEFAULT_ACCENT = '#2451c7';

/** The accent as validated with the project (config/projectConfig.ts); checked again as it goes into CSS. */
function accentOf(brand: EmailBrand): string {
  const given = brand.emailAccentColor;
  return given !== undefined && /^#[0-9a-f]{6}$/i.test(given) ? given : DEFAULT_ACCENT;
}
const SANS = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MONO = "ui-monospace,'SFMono-Regular',Menlo,Consolas,'Liberation Mono','Courier New',monospace";

const WORDS = {
  en: {
    codeHeading: 'Your verification code',
    codeIntro: (app: string) => `Enter this code to verify your e-mail address for ${app}:`,
    codeExpiry: 'The code expires in 10 minutes.',
    signupHeading: 'Verify your e-mail address',
    loginHeading: 'Log in',
    linkIntro: (app: string) => `Open this link to verify your e-mail address for ${app}:`,
    button: { signup: 'Verify e-mail address', login: 'Log in' },
    linkFallback: 'If the button does not work, copy this link into your browser:',
    linkExpiry: 'The link expires in 10 minutes and works once.',
    notYou: (what: 'code' | 'link') => `If you did not ask for this, you can ignore this e-mail; nobody gets in without the ${what}.`,
  },
  de: {
    codeHeading: 'Dein Bestätigungscode',
    codeIntro: (app: string) => `Gib diesen Code ein, um deine E-Mail-Adresse für ${app} zu bestätigen:`,
    codeExpiry: 'Der Code ist 10 Minuten gültig.',
    signupHeading: 'Bestätige deine E-Mail-Adresse',
    loginHeading: 'Anmelden',
    linkIntro: (app: string) => `Öffne diesen Link, um deine E-Mail-Adresse für ${app} zu bestätigen:`,
    button: { signup: 'E-Mail-Adresse bestätigen', login: 'Anmelden' },
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopiere diesen Link in deinen Browser:',
    linkExpiry: 'Der Link ist 10 Minuten gültig und kann nur einmal verwendet werden.',
    notYou: (what: 'code' | 'link') =>
      `Falls du das nicht angefordert hast, kannst du diese E-Mail ignorieren; ohne den ${what === 'code' ? 'Code' : 'Link'} kommt niemand hinein.`,
  },
} as const;

/** Black or white, whichever reads better on the accent colour (WCAG relative luminance). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

/** The document around an e-mail's content; `content` must already be escaped. */
function emailDocument(brand: EmailBrand, subject: string, content: string, notYou: string): string {
  const accent = accentOf(brand);
  const app = escapeHtml(brand.appName);
  const logo = brand.emailLogoUrl
    ? `<img src="${escapeHtml(brand.emailLogoUrl)}" alt="${app}" height="40" style="display:block;height:40px;width:auto;max-width:200px;border:0;margin:0 0 12px">`
    : '';
  return `<!doctype html>
<html lang="${brand.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="max-width:480px;margin:0 auto;padding:32px 16px;font-family:${SANS};font-size:15px;line-height:1.5;color:#1f2937">
<div style="background:#ffffff;border-top:4px solid ${accent};border-radius:8px;padding:28px 24px">
${logo}<div style="font-size:14px;font-weight:700;color:${accent};margin:0 0 20px">${app}</div>
${content}
<p style="margin:24px 0 0;padding-top:16px;border-top:1px solid #e5e7eb;font-size:13px;color:#6b7280">${escapeHtml(notYou)}</p>
</div></div></body></html>
`;
}

const heading = (text: string) => `<h1 style="font-size:20px;line-height:1.3;margin:0 0 12px;color:#111827">${escapeHtml(text)}</h1>`;
const paragraph = (text: string, style = '') => `<p style="margin:0 0 12px${style}">${escapeHtml(text)}</p>`;

export function otpEmail(brand: EmailBrand, code: string): MessageText {
  const w = WORDS[brand.language];
  const subject = brand.language === 'de' ? `Dein Code für ${brand.appName}: ${code}` : `Your ${brand.appName} code: ${code}`;
  const text =
    brand.language === 'de'
      ? `Hallo,\n\ndein Bestätigungscode für ${brand.appName} lautet: ${code}\n\n${w.codeExpiry} ${w.notYou('code')}\n`
      : `Hello,\n\nyour verification code for ${brand.appName} is: ${code}\n\n${w.codeExpiry} ${w.notYou('code')}\n`;
  // real text in a monospace face, spaced out (the left padding balances the spacing after the last
  // digit), selected as a whole with one click or tap
  const codeBlock = `<div style="margin:20px 0;padding:16px 0 16px 8px;background:#f3f4f6;border-radius:6px;text-align:center;font-family:${MONO};font-size:32px;font-weight:700;letter-spacing:8px;color:#111827;user-select:all;-webkit-user-select:all">${escapeHtml(code)}</div>`;
  const content = [heading(w.codeHeading), paragraph(w.codeIntro(brand.appName)), codeBlock, paragraph(w.codeExpiry)].join('\n');
  return { subject, text, html: emailDocument(brand, subject, content, w.notYou('code')) };
}

export function linkEmail(brand: EmailBrand, link: string, authType: 'signup' | 'login'): MessageText {
  const w = WORDS[brand.language];
  const app = brand.appName;
  const subject =
    brand.language === 'de'
      ? authType === 'signup'
        ? `Bestätige deine E-Mail-Adresse für ${app}`
        : `Dein Anmeldelink für ${app}`
      : authType === 'signup'
        ? `Verify your e-mail address for ${app}`
        : `Your ${app} login link`;
  const text = `${brand.language === 'de' ? 'Hallo' : 'Hello'},\n\n${w.linkIntro(app).replace(/^./, (c) => c.toLowerCase())}\n\n${link}\n\n${w.linkExpiry} ${w.notYou('link')}\n`;
  const accent = accentOf(brand);
  const href = escapeHtml(link);
  const button = `<div style="margin:20px 0;text-align:center"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${accent};color:${textOn(accent)};font-weight:700;text-decoration:none">${escapeHtml(w.button[authType])}</a></div>`;
  const fallback = `<p style="margin:0 0 12px;font-size:13px;color:#6b7280">${escapeHtml(w.linkFallback)}<br><a href="${href}" style="color:${accent};word-break:break-all">${href}</a></p>`;
  const content = [
    heading(authType === 'signup' ? w.signupHeading : w.loginHeading),
    paragraph(w.linkIntro(app)),
    button,
    fallback,
    paragraph(w.linkExpiry),
  ].join('\n');
  return { subject, text, html: emailDocument(brand, subject, content, w.notYou('link')) };
}

const PROVIDER_NAMES = { google: 'Google', microsoft: 'Microsoft', github: 'GitHub' } as const;

/**
 * The notice that a provider account was linked to the account: which one, and what to do if it was not
 * the person (remove it on the account page; until then it is a way in).
 */
export function socialLinkedEmail(brand: EmailBrand, provider: keyof typeof PROVIDER_NAMES, providerEmail: string): MessageText {
  const app = brand.appName;
  const name = PROVIDER_NAMES[provider];
  const de = brand.language === 'de';
  const subject = de ? `${name} ist jetzt mit deinem Konto bei ${app} verknüpft` : `${name} is now linked to your ${app} account`;
  const intro = de
    ? `Ab jetzt kannst du dich bei ${app} mit deinem ${name}-Konto (${providerEmail}) anmelden.`
    : `From now on you can log in to ${app} with your ${name} account (${providerEmail}).`;
  const notYou = de
    ? `Warst du das nicht? Melde dich an und entferne ${name} in deinem Konto unter „Social-Konten“; bis dahin kommt man damit in dein Konto.`
    : `Was this not you? Log in and remove ${name} under "Social accounts" in your account; until then it is a way into your account.`;
  const text = `${de ? 'Hallo' : 'Hello'},\n\n${intro}\n\n${notYou}\n`;
  const content = [heading(de ? `${name} wurde verknüpft` : `${name} was linked`), paragraph(intro)].join('\n');
  return { subject, text, html: emailDocument(brand, subject, content, notYou) };
}

/**
 * An SMS code; its last line is the origin-bound one of WebOTP (`@host #code`): the phone offers the
 * code only to pages of `host` (a host name, without scheme or port).
 */
export function otpSms(lang: Language, appName: string, code: string, host: string): MessageText {
  const first = lang === 'de' ? `${code} ist dein Code für ${appName}. Er ist 10 Minuten gültig.` : `${code} is your ${appName} code. It expires in 10 minutes.`;
  return { subject: '', text: `${first}\n\n@${host} #${code}` };
}
