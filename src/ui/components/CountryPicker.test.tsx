import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInShadow } from '../test/renderInShadow';
import { CountryPicker } from './CountryPicker';

describe('CountryPicker flags', () => {
  it('[spec 2.country-picker] shows the regional-indicator flag of the chosen country and of every listed one, hidden from screen readers', () => {
    const view = renderInShadow(<CountryPicker country="DE" onChange={() => undefined} />);
    const toggleFlag = view.$('.cb-country-toggle .cb-flag')!;
    expect(toggleFlag.textContent).toBe('\u{1F1E9}\u{1F1EA}');
    expect(toggleFlag.getAttribute('aria-hidden')).toBe('true');
    act(() => view.$<HTMLButtonElement>('.cb-country-toggle')!.click());
    const options = view.$$('[role=option]');
    expect(options.length).toBeGreaterThan(240);
    for (const option of options) {
      const flag = option.querySelector('.cb-flag')!;
      expect(flag.getAttribute('aria-hidden')).toBe('true');
      // and its calling code
      expect(option.textContent).toMatch(/\+\d{1,4}$/);
      // two regional indicator symbols, the country's ISO code shifted into U+1F1E6..U+1F1FF
      const code = option.id.slice(-2);
      expect([...flag.textContent!].map((c) => String.fromCharCode(c.codePointAt(0)! - 0x1f1e6 + 65)).join('')).toBe(code);
    }
    const us = options.find((o) => o.id.endsWith('US'))!;
    expect(us.querySelector('.cb-flag')!.textContent).toBe('\u{1F1FA}\u{1F1F8}');
    // the name stays what the option says: the flag is not part of its name text
    expect(us.querySelector('.cb-country-name')!.textContent).toBe('United States');
    view.unmount();
  });
});
