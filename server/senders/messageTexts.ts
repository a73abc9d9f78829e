// The texts of the e-mails and SMS the server sends, in eight languages: the visitor's where the
// request names one of them (messageLanguage), else the project's. E-mails have an HTML part
// (inline styles only, for mail clients) and a plain-text alternative; SMS end with the origin-bound
// line (`@host #code`) that lets a phone offer the code only on the project's site (WebOTP).
import { LANGUAGES, type Language } from '../config/projectConfig.ts';
import { escapeHtml } from '../http/html.ts';

export type { Language };

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

type What = 'code' | 'link';

/**
 * What a language says in the messages; `app` is the project's name. The sentences that open a
 * plain-text body (`codeLine`, `linkIntro`, `linked.intro`) are written as they stand after the
 * greeting's comma: German and Italian go on in lower case there (German keeps the capital of a noun
 * and of Sie), the other languages start the sentence with a capital. Where such a sentence stands on
 * its own (an HTML paragraph) its first letter is raised (`sentence`); no code ever lowers one.
 */
interface Words {
  hello: string;
  codeSubject: (app: string, code: string) => string;
  /** the plain-text code line after the greeting */
  codeLine: (app: string, code: string) => string;
  codeHeading: string;
  codeIntro: (app: string) => string;
  codeExpiry: string;
  signupHeading: string;
  loginHeading: string;
  linkSubject: { signup: (app: string) => string; login: (app: string) => string };
  linkIntro: (app: string) => string;
  button: { signup: string; login: string };
  linkFallback: string;
  linkExpiry: string;
  notYou: (what: What) => string;
  sms: (app: string, code: string) => string;
  /** the notice that a provider account (`name`, with its address `email`) was linked to the account */
  linked: {
    subject: (app: string, name: string) => string;
    heading: (name: string) => string;
    intro: (app: string, name: string, email: string) => string;
    /** what to do if it was not the person: the account page's section, as the widget names it */
    notYou: (name: string) => string;
  };
}

// French typography: a no-break space before the colon and the semicolon
const NBSP = '\u00a0';

const WORDS: Record<Language, Words> = {
  en: {
    hello: 'Hello',
    codeSubject: (app, code) => `Your ${app} code: ${code}`,
    codeLine: (app, code) => `Your verification code for ${app} is: ${code}`,
    codeHeading: 'Your verification code',
    codeIntro: (app) => `Enter this code to verify your e-mail address for ${app}:`,
    codeExpiry: 'The code expires in 10 minutes.',
    signupHeading: 'Verify your e-mail address',
    loginHeading: 'Log in',
    linkSubject: { signup: (app) => `Verify your e-mail address for ${app}`, login: (app) => `Your ${app} login link` },
    linkIntro: (app) => `Open this link to verify your e-mail address for ${app}:`,
    button: { signup: 'Verify e-mail address', login: 'Log in' },
    linkFallback: 'If the button does not work, copy this link into your browser:',
    linkExpiry: 'The link expires in 10 minutes and works once.',
    notYou: (what) => `If you did not ask for this, you can ignore this e-mail; nobody gets in without the ${what}.`,
    sms: (app, code) => `${code} is your ${app} code. It expires in 10 minutes.`,
    linked: {
      subject: (app, name) => `${name} is now linked to your ${app} account`,
      heading: (name) => `${name} was linked`,
      intro: (app, name, email) => `From now on you can log in to ${app} with your ${name} account (${email}).`,
      notYou: (name) => `Was this not you? Log in and remove ${name} under "Social accounts" in your account; until then it is a way into your account.`,
    },
  },
  de: {
    hello: 'Hallo',
    codeSubject: (app, code) => `Dein Code für ${app}: ${code}`,
    codeLine: (app, code) => `dein Bestätigungscode für ${app} lautet: ${code}`,
    codeHeading: 'Dein Bestätigungscode',
    codeIntro: (app) => `Gib diesen Code ein, um deine E-Mail-Adresse für ${app} zu bestätigen:`,
    codeExpiry: 'Der Code ist 10 Minuten gültig.',
    signupHeading: 'Bestätige deine E-Mail-Adresse',
    loginHeading: 'Anmelden',
    linkSubject: { signup: (app) => `Bestätige deine E-Mail-Adresse für ${app}`, login: (app) => `Dein Anmeldelink für ${app}` },
    linkIntro: (app) => `öffne diesen Link, um deine E-Mail-Adresse für ${app} zu bestätigen:`,
    button: { signup: 'E-Mail-Adresse bestätigen', login: 'Anmelden' },
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopiere diesen Link in deinen Browser:',
    linkExpiry: 'Der Link ist 10 Minuten gültig und kann nur einmal verwendet werden.',
    notYou: (what) =>
      `Falls du das nicht angefordert hast, kannst du diese E-Mail ignorieren; ohne den ${what === 'code' ? 'Code' : 'Link'} kommt niemand hinein.`,
    sms: (app, code) => `${code} ist dein Code für ${app}. Er ist 10 Minuten gültig.`,
    linked: {
      subject: (app, name) => `${name} ist jetzt mit deinem Konto bei ${app} verknüpft`,
      heading: (name) => `${name} wurde verknüpft`,
      intro: (app, name, email) => `ab jetzt kannst du dich bei ${app} mit deinem ${name}-Konto (${email}) anmelden.`,
      notYou: (name) => `Warst du das nicht? Melde dich an und entferne ${name} in deinem Konto unter „Social-Konten“; bis dahin kommt man damit in dein Konto.`,
    },
  },
  fr: {
    hello: 'Bonjour',
    codeSubject: (app, code) => `Votre code ${app}${NBSP}: ${code}`,
    codeLine: (app, code) => `Votre code de vérification pour ${app} est${NBSP}: ${code}`,
    codeHeading: 'Votre code de vérification',
    codeIntro: (app) => `Saisissez ce code pour vérifier votre adresse e-mail sur ${app}${NBSP}:`,
    codeExpiry: 'Le code expire dans 10 minutes.',
    signupHeading: 'Vérifiez votre adresse e-mail',
    loginHeading: 'Connexion',
    linkSubject: { signup: (app) => `Vérifiez votre adresse e-mail pour ${app}`, login: (app) => `Votre lien de connexion à ${app}` },
    linkIntro: (app) => `Ouvrez ce lien pour vérifier votre adresse e-mail sur ${app}${NBSP}:`,
    button: { signup: 'Vérifier l’adresse e-mail', login: 'Se connecter' },
    linkFallback: `Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur${NBSP}:`,
    linkExpiry: 'Le lien expire dans 10 minutes et ne fonctionne qu’une seule fois.',
    notYou: (what) =>
      `Si vous n’avez rien demandé, vous pouvez ignorer cet e-mail${NBSP}; personne ne pourra se connecter sans le ${what === 'code' ? 'code' : 'lien'}.`,
    sms: (app, code) => `${code} est votre code ${app}. Il expire dans 10 minutes.`,
    linked: {
      subject: (app, name) => `Votre compte ${app} est désormais associé à ${name}`,
      heading: (name) => `Compte ${name} associé`,
      intro: (app, name, email) => `Vous pouvez désormais vous connecter à ${app} avec votre compte ${name} (${email}).`,
      notYou: (name) =>
        `Ce n’était pas vous${NBSP}? Connectez-vous et retirez ${name} dans la rubrique «${NBSP}Comptes de réseaux sociaux${NBSP}» de votre compte${NBSP}; d’ici là, ${name} permet d’y accéder.`,
    },
  },
  es: {
    hello: 'Hola',
    codeSubject: (app, code) => `Tu código de ${app}: ${code}`,
    codeLine: (app, code) => `Tu código de verificación para ${app} es: ${code}`,
    codeHeading: 'Tu código de verificación',
    codeIntro: (app) => `Introduce este código para verificar tu dirección de correo electrónico en ${app}:`,
    codeExpiry: 'El código caduca en 10 minutos.',
    signupHeading: 'Verifica tu dirección de correo electrónico',
    loginHeading: 'Iniciar sesión',
    linkSubject: {
      signup: (app) => `Verifica tu dirección de correo electrónico para ${app}`,
      login: (app) => `Tu enlace para iniciar sesión en ${app}`,
    },
    linkIntro: (app) => `Abre este enlace para verificar tu dirección de correo electrónico en ${app}:`,
    button: { signup: 'Verificar dirección de correo', login: 'Iniciar sesión' },
    linkFallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    linkExpiry: 'El enlace caduca en 10 minutos y solo funciona una vez.',
    notYou: (what) => `Si no lo has solicitado, puedes ignorar este correo; nadie puede entrar sin el ${what === 'code' ? 'código' : 'enlace'}.`,
    sms: (app, code) => `${code} es tu código de ${app}. Caduca en 10 minutos.`,
    linked: {
      subject: (app, name) => `Tu cuenta de ${app} ya está vinculada con ${name}`,
      heading: (name) => `Cuenta de ${name} vinculada`,
      intro: (app, name, email) => `A partir de ahora puedes iniciar sesión en ${app} con tu cuenta de ${name} (${email}).`,
      notYou: (name) => `¿No has sido tú? Inicia sesión y quita la cuenta de ${name} en «Cuentas sociales»; hasta entonces, con ella se puede entrar en tu cuenta.`,
    },
  },
  it: {
    hello: 'Ciao',
    codeSubject: (app, code) => `Il tuo codice ${app}: ${code}`,
    codeLine: (app, code) => `il tuo codice di verifica per ${app} è: ${code}`,
    codeHeading: 'Il tuo codice di verifica',
    codeIntro: (app) => `Inserisci questo codice per verificare il tuo indirizzo e-mail su ${app}:`,
    codeExpiry: 'Il codice scade tra 10 minuti.',
    signupHeading: 'Verifica il tuo indirizzo e-mail',
    loginHeading: 'Accedi',
    linkSubject: { signup: (app) => `Verifica il tuo indirizzo e-mail per ${app}`, login: (app) => `Il tuo link di accesso a ${app}` },
    linkIntro: (app) => `apri questo link per verificare il tuo indirizzo e-mail su ${app}:`,
    button: { signup: 'Verifica indirizzo e-mail', login: 'Accedi' },
    linkFallback: 'Se il pulsante non funziona, copia questo link nel tuo browser:',
    linkExpiry: 'Il link scade tra 10 minuti e funziona una sola volta.',
    notYou: (what) => `Se non l’hai richiesto tu, puoi ignorare questa e-mail; nessuno può entrare senza il ${what === 'code' ? 'codice' : 'link'}.`,
    sms: (app, code) => `${code} è il tuo codice ${app}. Scade tra 10 minuti.`,
    linked: {
      subject: (app, name) => `Il tuo account ${app} è ora collegato a ${name}`,
      heading: (name) => `Account ${name} collegato`,
      intro: (app, name, email) => `d’ora in poi puoi accedere a ${app} con il tuo account ${name} (${email}).`,
      notYou: (name) => `Non l’hai fatto tu? Accedi e rimuovi ${name} in «Account social» nel tuo account; fino ad allora, con ${name} si può entrare nel tuo account.`,
    },
  },
  nl: {
    hello: 'Hallo',
    codeSubject: (app, code) => `Je code voor ${app}: ${code}`,
    codeLine: (app, code) => `Je verificatiecode voor ${app} is: ${code}`,
    codeHeading: 'Je verificatiecode',
    codeIntro: (app) => `Voer deze code in om je e-mailadres voor ${app} te bevestigen:`,
    codeExpiry: 'De code verloopt over 10 minuten.',
    signupHeading: 'Bevestig je e-mailadres',
    loginHeading: 'Inloggen',
    linkSubject: { signup: (app) => `Bevestig je e-mailadres voor ${app}`, login: (app) => `Je inloglink voor ${app}` },
    linkIntro: (app) => `Open deze link om je e-mailadres voor ${app} te bevestigen:`,
    button: { signup: 'E-mailadres bevestigen', login: 'Inloggen' },
    linkFallback: 'Werkt de knop niet? Kopieer dan deze link naar je browser:',
    linkExpiry: 'De link verloopt over 10 minuten en werkt maar één keer.',
    notYou: (what) => `Heb je hier niet om gevraagd? Dan kun je deze e-mail negeren; zonder de ${what} komt niemand binnen.`,
    sms: (app, code) => `${code} is je code voor ${app}. Hij verloopt over 10 minuten.`,
    linked: {
      subject: (app, name) => `${name} is nu gekoppeld aan je account bij ${app}`,
      heading: (name) => `${name} is gekoppeld`,
      intro: (app, name, email) => `Vanaf nu kun je bij ${app} inloggen met je ${name}-account (${email}).`,
      notYou: (name) => `Was jij dit niet? Log in en verwijder ${name} onder ‘Sociale accounts’ in je account; tot die tijd kan iemand daarmee in je account komen.`,
    },
  },
  // Brazilian Portuguese
  pt: {
    hello: 'Olá',
    codeSubject: (app, code) => `Seu código para ${app}: ${code}`,
    codeLine: (app, code) => `Seu código de verificação para ${app} é: ${code}`,
    codeHeading: 'Seu código de verificação',
    codeIntro: (app) => `Digite este código para verificar seu endereço de e-mail para ${app}:`,
    codeExpiry: 'O código expira em 10 minutos.',
    signupHeading: 'Verifique seu endereço de e-mail',
    loginHeading: 'Entrar',
    linkSubject: { signup: (app) => `Verifique seu endereço de e-mail para ${app}`, login: (app) => `Seu link de acesso para ${app}` },
    linkIntro: (app) => `Abra este link para verificar seu endereço de e-mail para ${app}:`,
    button: { signup: 'Verificar endereço de e-mail', login: 'Entrar' },
    linkFallback: 'Se o botão não funcionar, copie e cole este link no seu navegador:',
    linkExpiry: 'O link expira em 10 minutos e só pode ser usado uma vez.',
    notYou: (what) => `Se você não pediu isso, pode ignorar este e-mail; ninguém entra sem o ${what === 'code' ? 'código' : 'link'}.`,
    sms: (app, code) => `${code} é seu código para ${app}. Ele expira em 10 minutos.`,
    linked: {
      subject: (app, name) => `Conta ${name} vinculada à sua conta no ${app}`,
      heading: (name) => `Conta ${name} vinculada`,
      intro: (app, name, email) => `A partir de agora, você pode entrar no ${app} com sua conta ${name} (${email}).`,
      notYou: (name) => `Não foi você? Entre e remova a conta ${name} em “Contas sociais” na sua conta; até lá, ela dá acesso à sua conta.`,
    },
  },
  // "w aplikacji …" leaves the app's name as it is (Polish would otherwise decline it)
  pl: {
    hello: 'Dzień dobry',
    codeSubject: (app, code) => `Twój kod w aplikacji ${app}: ${code}`,
    codeLine: (app, code) => `Twój kod weryfikacyjny w aplikacji ${app} to: ${code}`,
    codeHeading: 'Twój kod weryfikacyjny',
    codeIntro: (app) => `Wpisz ten kod, aby potwierdzić swój adres e-mail w aplikacji ${app}:`,
    codeExpiry: 'Kod wygasa za 10 minut.',
    signupHeading: 'Potwierdź swój adres e-mail',
    loginHeading: 'Logowanie',
    linkSubject: {
      signup: (app) => `Potwierdź swój adres e-mail w aplikacji ${app}`,
      login: (app) => `Twój link do logowania w aplikacji ${app}`,
    },
    linkIntro: (app) => `Otwórz ten link, aby potwierdzić swój adres e-mail w aplikacji ${app}:`,
    button: { signup: 'Potwierdź adres e-mail', login: 'Zaloguj się' },
    linkFallback: 'Jeśli przycisk nie działa, skopiuj ten link do przeglądarki:',
    linkExpiry: 'Link wygasa za 10 minut i działa tylko raz.',
    notYou: (what) => `Jeśli to nie była Twoja prośba, zignoruj tę wiadomość; bez ${what === 'code' ? 'kodu' : 'linku'} nikt się nie zaloguje.`,
    sms: (app, code) => `${code} to Twój kod w aplikacji ${app}. Wygasa za 10 minut.`,
    linked: {
      subject: (app, name) => `Konto ${name} jest teraz połączone z Twoim kontem w aplikacji ${app}`,
      heading: (name) => `Połączono konto ${name}`,
      intro: (app, name, email) => `Od teraz możesz logować się w aplikacji ${app} przez konto ${name} (${email}).`,
      notYou: (name) => `To nie Ty? Zaloguj się i usuń konto ${name} w sekcji „Konta społecznościowe” na swoim koncie; do tego czasu można się przez nie dostać do Twojego konta.`,
    },
  },
};

/**
 * The language of a visitor's messages: the first language of the request's `Accept-Language` (by its
 * weights) that has texts here, else the project's. The widget sends its own language there; other
 * clients send the browser's.
 */
export function messageLanguage(acceptLanguage: string | undefined, projectLanguage: Language): Language {
  const ranked = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: tag.trim().toLowerCase().split('-')[0]!, weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((entry) => entry.language).find((l): l is Language => (LANGUAGES as readonly string[]).includes(l)) ?? projectLanguage;
}

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

/** A sentence that stands on its own: its first letter raised (a body's opening may start in lower case). */
const sentence = (language: Language, text: string) => text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
/** A plain-text body: the greeting, then its opening sentence as the language writes it after the comma. */
const greeted = (w: Words, opening: string) => `${w.hello},\n\n${opening}`;

const heading = (text: string) => `<h1 style="font-size:20px;line-height:1.3;margin:0 0 12px;color:#111827">${escapeHtml(text)}</h1>`;
const paragraph = (text: string, style = '') => `<p style="margin:0 0 12px${style}">${escapeHtml(text)}</p>`;

export function otpEmail(brand: EmailBrand, code: string): MessageText {
  const w = WORDS[brand.language];
  const subject = w.codeSubject(brand.appName, code);
  const text = `${greeted(w, w.codeLine(brand.appName, code))}\n\n${w.codeExpiry} ${w.notYou('code')}\n`;
  // real text in a monospace face, spaced out (the left padding balances the spacing after the last
  // digit), selected as a whole with one click or tap
  const codeBlock = `<div style="margin:20px 0;padding:16px 0 16px 8px;background:#f3f4f6;border-radius:6px;text-align:center;font-family:${MONO};font-size:32px;font-weight:700;letter-spacing:8px;color:#111827;user-select:all;-webkit-user-select:all">${escapeHtml(code)}</div>`;
  const content = [heading(w.codeHeading), paragraph(w.codeIntro(brand.appName)), codeBlock, paragraph(w.codeExpiry)].join('\n');
  return { subject, text, html: emailDocument(brand, subject, content, w.notYou('code')) };
}

export function linkEmail(brand: EmailBrand, link: string, authType: 'signup' | 'login'): MessageText {
  const w = WORDS[brand.language];
  const app = brand.appName;
  const subject = w.linkSubject[authType](app);
  const text = `${greeted(w, w.linkIntro(app))}\n\n${link}\n\n${w.linkExpiry} ${w.notYou('link')}\n`;
  const accent = accentOf(brand);
  const href = escapeHtml(link);
  const button = `<div style="margin:20px 0;text-align:center"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${accent};color:${textOn(accent)};font-weight:700;text-decoration:none">${escapeHtml(w.button[authType])}</a></div>`;
  const fallback = `<p style="margin:0 0 12px;font-size:13px;color:#6b7280">${escapeHtml(w.linkFallback)}<br><a href="${href}" style="color:${accent};word-break:break-all">${href}</a></p>`;
  const content = [
    heading(authType === 'signup' ? w.signupHeading : w.loginHeading),
    paragraph(sentence(brand.language, w.linkIntro(app))),
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
  const w = WORDS[brand.language];
  const name = PROVIDER_NAMES[provider];
  const subject = w.linked.subject(brand.appName, name);
  const intro = w.linked.intro(brand.appName, name, providerEmail);
  const notYou = w.linked.notYou(name);
  const text = `${greeted(w, intro)}\n\n${notYou}\n`;
  const content = [heading(w.linked.heading(name)), paragraph(sentence(brand.language, intro))].join('\n');
  return { subject, text, html: emailDocument(brand, subject, content, notYou) };
}

/**
 * An SMS code; its last line is the origin-bound one of WebOTP (`@host #code`): the phone offers the
 * code only to pages of `host` (a host name, without scheme or port).
 */
export function otpSms(lang: Language, appName: string, code: string, host: string): MessageText {
  return { subject: '', text: `${WORDS[lang].sms(appName, code)}\n\n@${host} #${code}` };
}
