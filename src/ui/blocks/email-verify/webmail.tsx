// Shortcut to the inbox of a major public webmail provider, on the e-mail link-sent screen and the
// e-mail code screen (SPEC.md section 2, email-verify). SPEC does not list the providers or say how
// they are chosen; as Corbado's web-js 3.5 does, they are Gmail, Yahoo Mail, Outlook and iCloud Mail,
// chosen by the first label of the address's domain whatever follows it (gmail.com, yahoo.co.uk,
// hotmail.de), and one button for the one provider an address belongs to.
import { Icon } from '../../components/Icon';
import { useT } from '../../context';

export interface Webmail {
  name: string;
  url: string;
}

const PROVIDERS: [name: string, url: string, labels: string[]][] = [
  ['Gmail', 'https://mail.google.com/mail/u/0/#inbox', ['gmail', 'googlemail']],
  ['Yahoo Mail', 'https://mail.yahoo.com/', ['yahoo']],
  ['Outlook', 'https://outlook.live.com/mail/0/inbox', ['outlook', 'hotmail', 'live']],
  ['iCloud Mail', 'https://www.icloud.com/mail', ['icloud']],
];

export function webmailFor(address: string): Webmail | undefined {
  const label = address.slice(address.lastIndexOf('@') + 1).split('.')[0]!.toLowerCase();
  const provider = address.includes('@') ? PROVIDERS.find(([, , labels]) => labels.includes(label)) : undefined;
  return provider && { name: provider[0], url: provider[1] };
}

/** The shortcut button for the address's provider, or nothing for any other address. */
export function WebmailButton({ address }: { address: string }) {
  const t = useT();
  const webmail = webmailFor(address);
  if (!webmail) return null;
  return (
    <a className="cb-button cb-primary" href={webmail.url} target="_blank" rel="noopener noreferrer">
      <Icon name="mail" />
      <span>{t('emailLink.open', { provider: webmail.name })}</span>
    </a>
  );
}
