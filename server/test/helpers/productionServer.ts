// A production-mode test server (production's required settings, mail to a local SMTP sink, SMS to
// /bin/true) with one project for the shop at SHOP, made as the admin command makes it.
import type { StartOptions } from '../../app.ts';
import { projectBuilder } from '../../config/projectConfig.ts';
import { CommandSmsSender } from '../../senders/SmsSender.ts';
import { startSmtpSink, waitForMessages, type SmtpSink } from './smtpSink.ts';
import { startTestServer, type TestServer } from './testServer.ts';

export const SHOP = 'https://shop.example';
export const KEY_ENCRYPTION_SECRET = 'a-key-encryption-secret-of-forty-characters';

export interface ProductionServer {
  server: TestServer;
  smtp: SmtpSink;
  /** the shop's project: e-mail codes, no passkeys, origin SHOP */
  projectId: string;
  /** the code in the `nth` mail the sink received (1-based), once it arrived */
  code(nth: number): Promise<string>;
  stop(): Promise<void>;
}

/** `project`: more settings of the shop's project (`crossSiteSessions`, lifetimes). */
export async function startProductionServer(publicUrl: string, api: Partial<StartOptions> = {}, project: Record<string, unknown> = {}): Promise<ProductionServer> {
  const smtp = await startSmtpSink();
  const server = await startTestServer({
    api: {
      mode: 'production',
      publicUrl,
      smtp: { host: '127.0.0.1', port: smtp.port, from: 'Shop <no-reply@shop.example>' },
      sms: new CommandSmsSender('/bin/true'),
      keyEncryptionSecret: KEY_ENCRYPTION_SECRET,
      ...api,
    },
  });
  const build = projectBuilder({ appName: 'Shop', allowedOrigins: [SHOP], passkeys: false, ...project }, undefined);
  const projectId = (await server.api.store.projects.create(build, server.clock.now)).id;
  return {
    server,
    smtp,
    projectId,
    async code(nth) {
      return /code for Shop is: (\d{6})/.exec((await waitForMessages(smtp, nth))[nth - 1]!)![1]!;
    },
    async stop() {
      await server.stop();
      smtp.close();
    },
  };
}
