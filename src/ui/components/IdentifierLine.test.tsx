import { describe, expect, it } from 'vitest';
import { renderInShadow } from '../test/renderInShadow';
import { Identifier } from './IdentifierLine';

describe('Identifier', () => {
  it('runs left to right and may wrap only after the "@" and before a dot', () => {
    const view = renderInShadow(<Identifier value="ada.lovelace@analytical-engine.example.co.uk" />);
    const value = view.$('span')!;
    expect(value.getAttribute('dir')).toBe('ltr');
    expect(value.textContent).toBe('ada.lovelace@analytical-engine.example.co.uk');
    expect(value.innerHTML.split('<wbr>')).toEqual(['ada', '.lovelace@', 'analytical-engine', '.example', '.co', '.uk']);
    view.unmount();
  });
});
