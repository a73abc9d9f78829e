// The texts of the e-mails and SMS the server sends, per project language.
export type Language = 'en' | 'de';

export interface MessageText {
  subject: string;
  text: string;
}

export function otpEmail(lang: Language, appName: string, code: string): MessageText {
  return lang === 'de'
    ? {
        subject: `Dein Code für ${appName}: ${code}`,
        text: `Hallo,\n\ndein Bestätigungscode für ${appName} lautet: ${code}\n\nDer Code ist 10 Minuten gültig. Falls du ihn nicht angefordert hast, ignoriere diese E-Mail.\n`,
      }
    : {
        subject: `Your ${appName} code: ${code}`,
        text: `Hello,\n\nyour verification code for ${appName} is: ${code}\n\nThe code expires in 10 minutes. If you did not request it, ignore this e-mail.\n`,
      };
}

export function linkEmail(lang: Language, appName: string, link: string, authType: 'signup' | 'login'): MessageText {
  if (lang === 'de') {
    return {
      subject: authType === 'signup' ? `Bestätige deine E-Mail-Adresse für ${appName}` : `Dein Anmeldelink für ${appName}`,
      text: `Hallo,\n\nöffne diesen Link, um deine E-Mail-Adresse für ${appName} zu bestätigen:\n\n${link}\n\nDer Link ist 10 Minuten gültig und kann nur einmal verwendet werden.\n`,
    };
  }
  return {
    subject: authType === 'signup' ? `Verify your e-mail address for ${appName}` : `Your ${appName} login link`,
    text: `Hello,\n\nopen this link to verify your e-mail address for ${appName}:\n\n${link}\n\nThe link expires in 10 minutes and works once.\n`,
  };
}

export function otpSms(lang: Language, appName: string, code: string): MessageText {
  return lang === 'de'
    ? { subject: '', text: `${code} ist dein Code für ${appName}. Er ist 10 Minuten gültig.` }
    : { subject: '', text: `${code} is your ${appName} code. It expires in 10 minutes.` };
}
