// Shortcut buttons to the inboxes of the big public webmail providers, chosen by the address's domain.
export interface Webmail {
  name: string;
  url: string;
}

const PROVIDERS: { name: string; url: string; domains: string[] }[] = [
  { name: 'Gmail', url: 'https://mail.google.com/mail/u/0/#inbox', domains: ['gmail.com', 'googlemail.com'] },
  { name: 'Outlook', url: 'https://outlook.live.com/mail/0/inbox', domains: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'outlook.de', 'hotmail.de'] },
  { name: 'Yahoo Mail', url: 'https://mail.yahoo.com/', domains: ['yahoo.com', 'yahoo.de', 'ymail.com'] },
  { name: 'iCloud Mail', url: 'https://www.icloud.com/mail', domains: ['icloud.com', 'me.com', 'mac.com'] },
  { name: 'Proton Mail', url: 'https://mail.proton.me/', domains: ['proton.me', 'protonmail.com', 'pm.me'] },
  { name: 'GMX', url: 'https://www.gmx.net/', domains: ['gmx.de', 'gmx.net', 'gmx.at', 'gmx.ch', 'gmx.com'] },
  { name: 'WEB.DE', url: 'https://web.de/', domains: ['web.de'] },
  { name: 'AOL Mail', url: 'https://mail.aol.com/', domains: ['aol.com'] },
];

export function webmailFor(address: string): Webmail | undefined {
  const domain = address.split('@')[1]?.toLowerCase();
  const provider = PROVIDERS.find((p) => domain && p.domains.includes(domain));
  return provider && { name: provider.name, url: provider.url };
}
