// The console's pure parts: its dictionary, roles, routes, adoption series and settings form.
import { describe, expect, it } from 'vitest';
import { fillDays, funnelRows, perMethod, seriesRows, shareSeries, type Daily } from './adoption';
import { resolveProjectConfig } from '../../server/config/projectConfig';
import { DICTIONARIES, preferredLanguage, settingLabel, translator, type TextKey } from './i18n';
import { projectList } from './pages/Operators';
import { asInstant, trailFilters } from './pages/Trail';
import { may, type Action } from './roles';
import { parseRoute, routeHash } from './route';
import { changedSettings, editableKeys, messagesByField } from './settingsForm';

describe('the dictionary', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  it('has every English text in German, with the same placeholders', () => {
    for (const key of Object.keys(DICTIONARIES.en) as TextKey[]) {
      expect(DICTIONARIES.de[key], key).toBeTruthy();
      expect(placeholders(DICTIONARIES.de[key]), key).toEqual(placeholders(DICTIONARIES.en[key]));
    }
    expect(Object.keys(DICTIONARIES.de).sort()).toEqual(Object.keys(DICTIONARIES.en).sort());
  });
  it('labels every setting of a project in both languages (the Project page shows no raw setting name)', () => {
    const config = resolveProjectConfig('pro-1', { appName: 'Shop', allowedOrigins: ['https://shop.example'], emailAccentColor: '#123456', emailLogoUrl: 'https://shop.example/logo.png' }, undefined);
    const names = editableKeys(config as unknown as Record<string, unknown>);
    expect(names).toContain('emailLogoUrl');
    for (const language of ['en', 'de'] as const) {
      const t = translator(language);
      for (const name of names) expect(settingLabel(t, name), `${language} ${name}`).not.toBe(name);
    }
    expect(settingLabel(translator('de'), 'appName')).toBe('App-Name');
    expect(settingLabel(translator('de'), 'notASetting')).toBe('notASetting');
  });
  it('fills placeholders and picks the browser language', () => {
    expect(translator('de')('users.count', { count: 3 })).toBe('3 angezeigt');
    expect(preferredLanguage(['fr-FR', 'de-AT'])).toBe('de');
    expect(preferredLanguage(['fr'])).toBe('en');
  });
});

describe('roles', () => {
  const all: Action[] = ['endSessions', 'sendVerification', 'disableUser', 'deleteUser', 'removePasskey', 'removeIdentifier', 'editSettings', 'manageSecrets', 'rotateKeys', 'manageWebhooks', 'redeliver', 'manageOperators'];
  it('support: end sessions, resend a verification, disable/enable, nothing else', () => {
    expect(all.filter((action) => may('support', action))).toEqual(['endSessions', 'sendVerification', 'disableUser']);
  });
  it('admin: everything in their projects but the operators; owner: everything', () => {
    expect(all.filter((action) => !may('admin', action))).toEqual(['manageOperators']);
    expect(all.every((action) => may('owner', action))).toBe(true);
  });
});

describe('routes', () => {
  it('reads and writes the hash of each page', () => {
    for (const hash of ['#/pro-1/users?q=ann', '#/pro-1/users/usr-1', '#/pro-2/adoption', '#/pro-1/trail?user=usr-1&outcome=failure', '#/pro-1/project', '#/operators']) {
      expect(routeHash(parseRoute(hash))).toBe(hash);
    }
    expect(parseRoute('#/pro-1/users/usr%2F1')).toMatchObject({ page: 'user', project: 'pro-1', user: 'usr/1' });
  });
  it('goes to the users of the first project for an unknown hash', () => {
    expect(parseRoute('', 'pro-3')).toEqual({ page: 'users', project: 'pro-3', query: {} });
    expect(parseRoute('#/pro-1/nothing', 'pro-3')).toEqual({ page: 'users', project: 'pro-1', query: {} });
  });
});

describe('adoption series', () => {
  const daily: Daily[] = [
    { date: '2026-11-02', signUps: { passkey: 2 }, logIns: { 'email-otp': 1 }, passkeyAdoptionShare: 0.5 },
    { date: '2026-11-01', signUps: { 'email-otp': 3 }, logIns: {}, passkeyAdoptionShare: 0.25 },
  ];
  it('gives each method a line over the days in order, zero where a day has none', () => {
    const series = perMethod(daily, 'signUps');
    expect(series.x).toEqual([Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000]);
    expect(series.lines).toEqual([
      { name: 'email-otp', values: [3, 0] },
      { name: 'passkey', values: [0, 2] },
    ]);
    expect(seriesRows(series)).toEqual([
      { date: '2026-11-01', values: [3, 0] },
      { date: '2026-11-02', values: [0, 2] },
    ]);
    expect(shareSeries(daily).lines[0]!.values).toEqual([0.25, 0.5]);
  });
  it('spans the whole period, zero on the days the server has no counts for', () => {
    const filled = fillDays(daily, '2026-10-31', 4);
    expect(filled.map((day) => day.date)).toEqual(['2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03']);
    expect(perMethod(filled, 'signUps').lines).toEqual([
      { name: 'email-otp', values: [0, 3, 0, 0] },
      { name: 'passkey', values: [0, 0, 2, 0] },
    ]);
  });
  it('orders the funnel by offers', () => {
    const rows = funnelRows([
      { os: 'Linux', browser: 'Firefox', offered: 1, created: 0, skipped: 1, failed: 0 },
      { os: 'macOS', browser: 'Safari', offered: 5, created: 4, skipped: 1, failed: 0 },
    ]);
    expect(rows.map((row) => row.label)).toEqual(['macOS · Safari', 'Linux · Firefox']);
  });
});

describe('the settings form', () => {
  const settings = { id: 'pro-1', appName: 'Demo', publicSignup: true, shortSessionLifetimeSeconds: 300, allowedOrigins: ['http://a.test'], limits: { login: 5 } };
  it('sends only the changed settings, each as the type it was', () => {
    const { patch, invalid } = changedSettings(settings, {
      appName: 'Demo',
      publicSignup: false,
      shortSessionLifetimeSeconds: '600',
      allowedOrigins: 'http://a.test\n http://b.test \n',
      limits: '{ "login": 5 }',
      id: 'pro-9',
    });
    expect(invalid).toEqual([]);
    expect(patch).toEqual({ publicSignup: false, shortSessionLifetimeSeconds: 600, allowedOrigins: ['http://a.test', 'http://b.test'] });
  });
  it('keeps back JSON that does not parse, and a number field that is no number goes as text for the server to refuse', () => {
    expect(changedSettings(settings, { limits: '{ login: 5', shortSessionLifetimeSeconds: 'soon' })).toEqual({ patch: { shortSessionLifetimeSeconds: 'soon' }, invalid: ['limits'] });
  });
  it('shows a nested field message at its setting', () => {
    expect(messagesByField({ 'identifiers.email.enabled': 'a', 'identifiers[0]': 'b', appName: 'c' })).toEqual({ identifiers: 'a b', appName: 'c' });
  });
});

describe('small readers', () => {
  it('reads project lists, trail filters and times', () => {
    expect(projectList('pro-1, pro-2 pro-3,')).toEqual(['pro-1', 'pro-2', 'pro-3']);
    expect(trailFilters({ user: 'u1', q: 'x', outcome: '' })).toEqual({ user: 'u1' });
    expect(asInstant('2026-11-28T04:00')).toBe('2026-11-28T04:00:00Z');
    expect(asInstant('2026-11-28')).toBe('2026-11-28');
  });
});
