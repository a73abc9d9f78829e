import { fireEvent } from '@testing-library/dom';
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInShadow } from '../test/renderInShadow';
import { PhoneInput, type PhoneValue } from './PhoneInput';

function Harness() {
  const [value, setValue] = useState<PhoneValue>({ text: '', country: 'US' });
  return <PhoneInput label="Phone number" value={value} onChange={setValue} />;
}

describe('PhoneInput', () => {
  it('[spec 5.phone-format-per-country] formats for the default country, US', () => {
    const view = renderInShadow(<Harness />);
    const input = view.$<HTMLInputElement>('input[type=tel]')!;
    act(() => {
      fireEvent.change(input, { target: { value: '2015550123' } });
    });
    expect(input.value).toBe('(201) 555-0123');
    expect(view.$('.cb-country-toggle')?.textContent).toContain('+1');
    view.unmount();
  });

  it('[spec 5.phone-paste-country] switches the country when a full international number is pasted', () => {
    const view = renderInShadow(<Harness />);
    const input = view.$<HTMLInputElement>('input[type=tel]')!;
    act(() => {
      fireEvent.change(input, { target: { value: '+44 20 7946 0958' } });
    });
    expect(view.$('.cb-country-toggle')?.textContent).toContain('+44');
    expect(input.value.replace(/\D/g, '')).toBe('2079460958');
    view.unmount();
  });

  it('[spec 9.country-list] lets the visitor search the country list and pick one', () => {
    const view = renderInShadow(<Harness />);
    act(() => view.$<HTMLButtonElement>('.cb-country-toggle')!.click());
    const search = view.$<HTMLInputElement>('.cb-country-search input')!;
    expect(view.$$('[role=option]').length).toBeGreaterThan(240);
    act(() => {
      fireEvent.change(search, { target: { value: '+49' } });
    });
    const options = view.$$('[role=option]');
    expect(options.map((o) => o.textContent)).toContainEqual(expect.stringContaining('Germany'));
    act(() => {
      fireEvent.keyDown(search, { key: 'Enter' });
    });
    expect(view.$('.cb-country-toggle')?.textContent).toContain('+49');
    expect(view.$('[role=listbox]')).toBeNull();
    view.unmount();
  });

  it('deleting a formatting character deletes the digit before it', () => {
    const view = renderInShadow(<Harness />);
    const input = view.$<HTMLInputElement>('input[type=tel]')!;
    act(() => {
      fireEvent.change(input, { target: { value: '2015' } });
    });
    expect(input.value).toBe('(201) 5');
    act(() => {
      fireEvent.change(input, { target: { value: '(201)5' } });
    });
    expect(input.value.replace(/\D/g, '')).toBe('201');
    view.unmount();
  });
});
