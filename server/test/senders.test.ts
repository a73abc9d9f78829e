// Messages: language, SMS, and delivery over SMTP in addition to the dev outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, waitForMessages, type SmtpSink } from './helpers/smtpSink.ts';
import { Client, createProject, latestLink, outbox, serverForThisFile, startTestServer, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

describe('message texts', () => {
  it('writes German codes for a German project', async () => {
    const id = await createProject(server.url, { appName: 'Laden', language: 'de' });
    const client = new Client(server.url, id);
    await client.init({}, 'signup-init');
    const email = uniqueEmail('de');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const [mail] = await outbox(server.url, email);
    expect(mail!.subject).toBe(`Dein Code für Laden: ${mail!.code}`);
    const wrong = await client.step('/v2/auth/identifier/verify/finish', {
      code: 'xxxxxx',
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(wrong.data.error.message).toBe('Der Code ist ungültig oder abgelaufen.');
  });

  it('puts the link into the mail and points it at emailLinkUrl; log-in links carry authType 0', async () => {
    const id = await createProject(server.url, {
      appName: 'Linky',
      identifiers: { email: { verification: 'email-link' } },
      emailLinkUrl: '${DEMO_ORIGIN}/login.html#top',
    });
    const signup = new Client(server.url, id);
    await signup.init({}, 'signup-init');
    const email = uniqueEmail('Linky.Ünï');
    await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const link = await latestLink(server.url, email);
    expect(link.origin + link.pathname).toBe('http://localhost:5173/login.html');
    const [mail] = await outbox(server.url, email);
    expect(mail!.text).toContain(mail!.link);
    expect(
      (
        await signup.step('/v2/auth/identifier/verify/finish', {
          code: link.searchParams.get('corbadoToken'),
          identifierType: 'email',
          verificationType: 'email-link',
          isNewDevice: false,
        })
      ).block,
    ).toBe('completed');

    const login = new Client(server.url, id);
    await login.init({});
    expect((await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('email-verify');
    const loginLink = await latestLink(server.url, email);
    // atob() in the browser gives Latin-1: the payload must survive that
    const payload = JSON.parse(Buffer.from(loginLink.searchParams.get('corbadoEmailLinkID')!, 'base64').toString('latin1'));
    expect(payload.authType).toBe(0);
    expect(payload.blockData.identifier).toBe(email);
    const done = await login.step('/v2/auth/identifier/verify/finish', {
      code: loginLink.searchParams.get('corbadoToken'),
      identifierType: 'email',
      verificationType: 'email-link',
      isNewDevice: false,
    });
    expect(done.block).toBe('completed');
    expect(done.authType).toBe('login');
  });

  it('[spec 4.login-path] logs in by phone with an SMS code (pro-3)', async () => {
    const signup = new Client(server.url, 'pro-3');
    await signup.init({}, 'signup-init');
    const phone = '+4915799990001';
    await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    const [sms] = await outbox(server.url, phone);
    await signup.step('/v2/auth/identifier/verify/finish', { code: sms!.code, identifierType: 'phone', verificationType: 'phone-otp', isNewDevice: false });
    const login = new Client(server.url, 'pro-3');
    await login.init({});
    const verify = await login.step('/v2/auth/login/init', { identifierValue: '+49 157 99990001', isPhone: true });
    expect(verify.block).toBe('phone-verify');
    const [code] = await outbox(server.url, phone);
    expect(code!.channel).toBe('sms');
    const done = await login.step('/v2/auth/identifier/verify/finish', { code: code!.code, identifierType: 'phone', verificationType: 'phone-otp', isNewDevice: false });
    expect(done.block).toBe('completed');
  });
});

describe('SMTP', () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => {
    smtp.close();
  });

  it('also delivers e-mails over SMTP when configured', async () => {
    const smtpServer = await startTestServer({ api: { smtp: { host: '127.0.0.1', port: smtp.port, from: 'Demo <demo@localhost>' } } });
    try {
      const client = new Client(smtpServer.url, 'pro-1');
      await client.init({}, 'signup-init');
      const email = uniqueEmail('smtp');
      await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Mail Man' });
      const [stored] = await outbox(smtpServer.url, email);
      const received = await waitForMessages(smtp, 1);
      expect(received).toHaveLength(1);
      expect(received[0]).toContain(`To: ${email}`);
      expect(received[0]).toContain(stored!.code);
    } finally {
      await smtpServer.stop();
    }
  });
});
