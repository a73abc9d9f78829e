import { fireEvent } from '@testing-library/dom';
import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { IdentifierType, RequestError } from '../core/api/types';
import type { CorbadoApp } from '../core/app';
import { configureI18n } from '../core/i18n/i18n';
import type { FlowBlock } from '../core/process/block';
import { EditIdentifierScreen } from './blocks/email-verify/EditIdentifierScreen';
import { AppContext } from './context';
import { requestErrorText } from './requestErrorText';
import { renderInShadow } from './test/renderInShadow';

const taken: RequestError = { code: 'identifier_already_in_use', message: 'identifier already in use' };

describe('server field errors', () => {
  it('[spec 5.server-field-errors] are translated by code, with a variant per identifier type, in the language shown', () => {
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    expect(requestErrorText(taken, 'email')).toBe('This email address is already taken. Please try another one or log in.');
    expect(requestErrorText(taken, 'phone')).toBe('This phone number is already taken. Please try another one or log in.');
    expect(requestErrorText(taken, 'username')).toBe('This username is already taken. Please try another one or log in.');
    // a code without identifier variants, and one no translation knows
    expect(requestErrorText({ code: 'missing_full_name', message: 'x' }, 'email')).toBe('Please enter a valid name.');
    expect(requestErrorText({ code: 'some_new_code', message: 'Said by the server' })).toBe('Said by the server');
    configureI18n({ defaultLanguage: 'de', autoDetectLanguage: false });
    expect(requestErrorText(taken, 'email')).not.toBe(requestErrorText(taken, 'phone'));
    expect(requestErrorText(taken, 'email')).not.toContain('already taken');
    configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
  });
});

/** The edit screen of a code screen's identifier on a fake flow whose update answers `answer`. */
function editScreen(type: IdentifierType, answer: RequestError | undefined) {
  const block: FlowBlock = {
    type: 'email-verify',
    authType: 'signup',
    data: { verificationMethod: 'email-otp', identifier: 'ada_lovelace', identifierType: type },
    alternatives: [],
  };
  const flow = { $block: atom(block), $busy: atom(false), updateIdentifier: vi.fn(async () => answer), setScreen: vi.fn() };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
      <EditIdentifierScreen type={type} />
    </AppContext.Provider>,
  );
  return { flow, view };
}

describe('the edit screen of the identifier being verified', () => {
  it('[spec 5.edit-changed] [spec 5.edit-errors-per-identifier] shows the error the update returned, translated for the identifier type', async () => {
    for (const [type, value, text] of [
      ['email', 'grace@example.com', 'This email address is already taken. Please try another one or log in.'],
      ['username', 'grace_hopper', 'This username is already taken. Please try another one or log in.'],
    ] as const) {
      const { flow, view } = editScreen(type, taken);
      const field = view.$<HTMLInputElement>(`input[name=${type}]`)!;
      act(() => {
        fireEvent.change(field, { target: { value } });
      });
      await act(async () => {
        fireEvent.submit(view.$('form')!);
      });
      expect(flow.updateIdentifier).toHaveBeenCalledExactlyOnceWith(type, value);
      expect(view.$('.cb-field-error')?.textContent).toBe(text);
      view.unmount();
    }
  });
});

describe('the phone field of the edit screen', () => {
  it('[spec 9.default-country] starts on the default country, the United States, and formats for it', () => {
    const { view } = editScreen('phone', undefined);
    expect(view.$('.cb-country-toggle')?.textContent).toContain('+1');
    const field = view.$<HTMLInputElement>('input[type=tel]')!;
    act(() => {
      fireEvent.change(field, { target: { value: '2015550123' } });
    });
    expect(field.value).toBe('(201) 555-0123');
    view.unmount();
  });
});
