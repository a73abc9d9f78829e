// `npm start` reads the server's variables as `npm run start:server` does (it used to ignore SOCIAL_*,
// METRICS_*, SMTP_* and the rest), with the local pair's defaults.
import { describe, expect, it } from 'vitest';
import { startOptionsFromEnv } from '../server/settings.ts';
import { npmStartOptions } from './startOptions.ts';

describe('npm start', () => {
  it('takes SOCIAL_*, METRICS_*, SMTP_*, TRUSTED_PROXIES, PUBLIC_URL and the ports from the environment', () => {
    const options = npmStartOptions(
      {
        API_PORT: '3270',
        DEMO_PORT: '5270',
        PUBLIC_URL: 'https://authsite.test',
        SOCIAL_GITHUB_CLIENT_ID: 'gh-client',
        SOCIAL_GITHUB_TOKEN_URL: 'http://127.0.0.1:3270/_dev/oauth/github/login/oauth/access_token',
        METRICS_ENABLED: 'on',
        METRICS_TOKEN: 'a-token-of-sixteen-chars',
        SMTP_HOST: 'mail.test',
        TRUSTED_PROXIES: '1',
        LOG_REQUESTS: 'off',
      },
      [],
    );
    expect(options).toMatchObject({
      port: 3270,
      backendApiPort: 3002,
      publicUrl: 'https://authsite.test',
      demoOrigin: 'http://localhost:5270',
      mode: 'development',
      metricsEnabled: true,
      metricsToken: 'a-token-of-sixteen-chars',
      smtp: { host: 'mail.test' },
      trustedProxies: 1,
      logRequests: false,
    });
    expect(options.socialProviders?.github).toEqual({ clientId: 'gh-client', tokenUrl: 'http://127.0.0.1:3270/_dev/oauth/github/login/oauth/access_token' });
  });

  it('DEMO_ORIGIN names the demo pages where a TLS front serves them; BACKEND_API_PORT=off turns the Backend API off; a wrong value stops the start', () => {
    expect(npmStartOptions({ DEMO_ORIGIN: 'https://shop.test', BACKEND_API_PORT: 'off' }, [])).toMatchObject({ demoOrigin: 'https://shop.test', port: 3001 });
    expect(npmStartOptions({ BACKEND_API_PORT: 'off' }, []).backendApiPort).toBeUndefined();
    expect(() => npmStartOptions({ METRICS_ENABLED: 'maybe' }, [])).toThrow(/METRICS_ENABLED/);
  });

  it('serves the console on 3003 (CONSOLE_PORT, CONSOLE_HOST, CONSOLE_PUBLIC_URL; off: none); `start:server` has none unless CONSOLE_PORT is set', () => {
    expect(npmStartOptions({}, [])).toMatchObject({ consolePort: 3003 });
    expect(npmStartOptions({ CONSOLE_PORT: 'off' }, []).consolePort).toBeUndefined();
    expect(npmStartOptions({ CONSOLE_PORT: '0', CONSOLE_HOST: '10.0.0.5', CONSOLE_PUBLIC_URL: 'https://console.shop.test/ignored' }, [])).toMatchObject({
      consolePort: 0,
      consoleHost: '10.0.0.5',
      consolePublicUrl: 'https://console.shop.test',
    });
    expect(() => npmStartOptions({ CONSOLE_PUBLIC_URL: 'ftp://x' }, [])).toThrow('CONSOLE_PUBLIC_URL must be an http(s) origin');
    expect(startOptionsFromEnv({}, []).consolePort).toBeUndefined();
    expect(startOptionsFromEnv({ CONSOLE_PORT: '3003' }, []).consolePort).toBe(3003);
  });
});

