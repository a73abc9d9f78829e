import { atom } from 'nanostores';
import { describe, expect, it } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { EmailLinkSentScreen } from './EmailLinkSentScreen';
import { OtpScreen } from './OtpScreen';
import { webmailFor } from './webmail';

describe('[spec 2.webmail-shortcuts] webmailFor', () => {
  it.each([
    ['ada@gmail.com', 'Gmail'],
    ['ada@googlemail.com', 'Gmail'],
    ['Ada@GMAIL.de', 'Gmail'],
    ['ada@yahoo.co.uk', 'Yahoo Mail'],
    ['ada@yahoo.de', 'Yahoo Mail'],
    ['ada@outlook.com', 'Outlook'],
    ['ada@hotmail.de', 'Outlook'],
    ['ada@live.com', 'Outlook'],
    ['ada@icloud.com', 'iCloud Mail'],
  ])('offers %s the inbox of %s', (address, name) => {
    expect(webmailFor(address)?.name).toBe(name);
  });

  it.each(['ada@example.com', 'ada@mail.gmail.example', 'ada@gmailer.com', 'gmail', 'gmail.com', 'ada@', ''])('offers nothing for %j', (address) => {
    expect(webmailFor(address)).toBeUndefined();
  });
});

function render(screen: 'email-link-sent' | 'email-otp-verification' | 'phone-otp', identifier: string) {
  const block: FlowBlock = {
    type: screen === 'phone-otp' ? 'phone-verify' : 'email-verify',
    authType: 'signup',
    data: { identifier, retryNotBefore: 0, verificationMethod: screen === 'email-link-sent' ? 'email-link' : 'email-otp' },
    alternatives: [],
  };
  const flow = { $block: atom(block), $busy: atom(false), $error: atom(undefined), $screen: atom(screen), canSkip: () => false };
  return renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
      {screen === 'email-link-sent' ? <EmailLinkSentScreen /> : <OtpScreen channel={screen === 'phone-otp' ? 'phone' : 'email'} />}
    </AppContext.Provider>,
  );
}

describe('[spec 2.webmail-shortcuts] the webmail shortcut on the verification screens', () => {
  it.each(['email-link-sent', 'email-otp-verification'] as const)('is on %s for a webmail address, opening the inbox in a new tab', (screen) => {
    const view = render(screen, 'ada@hotmail.de');
    const links = view.$$<HTMLAnchorElement>('a');
    expect(links).toHaveLength(1);
    expect(links[0]!.textContent).toBe('Open Outlook');
    expect(links[0]!.href).toBe('https://outlook.live.com/mail/0/inbox');
    expect(links[0]!.target).toBe('_blank');
    expect(links[0]!.rel).toBe('noopener noreferrer');
    view.unmount();
  });

  it.each(['email-link-sent', 'email-otp-verification'] as const)('is not on %s for any other address', (screen) => {
    const view = render(screen, 'ada@example.com');
    expect(view.$$('a')).toHaveLength(0);
    view.unmount();
  });

  it('is not on the phone code screen', () => {
    const view = render('phone-otp', '+4915112345678');
    expect(view.$$('a')).toHaveLength(0);
    view.unmount();
  });
});
