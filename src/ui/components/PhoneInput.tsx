import { typePhone, type CountryCode } from '../../core/validation/phone';
import { CountryPicker } from './CountryPicker';
import { TextField } from './TextField';

export interface PhoneValue {
  text: string;
  country: CountryCode;
}

interface Props {
  label: string;
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
  error?: string;
  disabled?: boolean;
  /** focus the number when it appears (a form the user just opened) */
  autoFocus?: boolean;
}

/** A phone field with a country picker, formatted as you type; a pasted international number sets the country. */
export function PhoneInput({ label, value, onChange, error, disabled, autoFocus }: Props) {
  const change = (raw: string) => {
    const digits = (s: string) => s.replace(/\D/g, '');
    // deleting only a formatting character (a bracket, a space) deletes the digit before it
    if (raw.length < value.text.length && digits(raw) === digits(value.text) && !/^\s*(\+|00)/.test(raw)) {
      raw = digits(raw).slice(0, -1);
    }
    onChange(typePhone(raw, value.country));
  };
  return (
    <TextField
      label={label}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      dir="ltr"
      name="phone"
      className="cb-phone"
      value={value.text}
      onChange={change}
      error={error}
      disabled={disabled}
      autoFocus={autoFocus}
      before={
        <CountryPicker
          country={value.country}
          disabled={disabled}
          onChange={(country) => onChange(typePhone(value.text, country))}
        />
      }
    />
  );
}
