// The sign-in page's widget follows the console's language: loaded in the language of the page, and
// loaded again (the widget takes its language at load) when the operator switches it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoGlobal } from '../Corbado';
import { loadWidget } from './SignIn';

afterEach(() => {
  delete window.Corbado;
});

describe('the sign-in widget', () => {
  it('is loaded in the console\'s language, again after a switch, and not again for the same language', async () => {
    const load = vi.fn(async (_options: { defaultLanguage: string }) => undefined);
    window.Corbado = { load } as unknown as CorbadoGlobal;
    const config = { projectId: 'pro-console', frontendApiUrl: 'http://localhost:3000' };
    expect(await loadWidget(config, 'en')).toBe(window.Corbado);
    await loadWidget(config, 'en');
    expect(load.mock.calls.map(([options]) => options.defaultLanguage)).toEqual(['en']);
    await loadWidget(config, 'de');
    await loadWidget(config, 'de');
    await loadWidget(config, 'en');
    expect(load.mock.calls.map(([options]) => options)).toEqual([
      expect.objectContaining({ defaultLanguage: 'en', autoDetectLanguage: false }),
      expect.objectContaining({ defaultLanguage: 'de', autoDetectLanguage: false, projectId: 'pro-console' }),
      expect.objectContaining({ defaultLanguage: 'en' }),
    ]);
  });
});
