import { useEffect, useId, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { acceptCodeInput, isCompleteCode, OTP_LENGTH } from '../../core/validation/otp';
import { useT } from '../context';

interface Props {
  onComplete: (code: string) => void;
  /** a changed error clears the cells and puts the focus back on the first */
  error?: string;
  /** changes whenever a new error arrives, even with the same text */
  errorKey?: unknown;
  /** while a code is checked the cells are read-only; they keep the focus */
  busy?: boolean;
  /** a code from elsewhere (the SMS as WebOTP reads it): filled in and submitted like a paste */
  autofill?: string;
}

const empty = () => Array<string>(OTP_LENGTH).fill('');

/**
 * Six single-digit cells: digits only, paste of a longer string, backspace and arrows, submit at six.
 * Every cell offers the one-time-code autofill and is described by the error; digits run left to right
 * in any direction.
 */
export function OtpInput({ onComplete, error, errorKey, busy, autofill }: Props) {
  const t = useT();
  const errorId = useId();
  const [cells, setCells] = useState(empty);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (index: number) => inputs.current[Math.max(0, Math.min(OTP_LENGTH - 1, index))]?.focus();

  // a new error (inline, or any failure the screen is told of by errorKey) clears the cells and puts
  // the focus back on the first, once the submit that brought it is over
  const refocus = useRef<'no' | 'mounted' | 'pending'>('no');
  useEffect(() => {
    setCells(empty());
    refocus.current = refocus.current === 'no' ? 'mounted' : 'pending';
  }, [error, errorKey]);
  useEffect(() => {
    if (refocus.current !== 'pending' || busy) return;
    refocus.current = 'mounted';
    focus(0);
  }, [error, errorKey, busy]);

  const fill = (from: number, text: string) => {
    const accepted = acceptCodeInput(text);
    if (accepted === undefined || busy) return;
    const start = accepted.length >= OTP_LENGTH ? 0 : from;
    const next = [...cells];
    [...accepted].forEach((digit, offset) => {
      if (start + offset < OTP_LENGTH) next[start + offset] = digit;
    });
    setCells(next);
    focus(Math.min(start + accepted.length, OTP_LENGTH - 1));
    if (isCompleteCode(next)) onComplete(next.join(''));
  };

  useEffect(() => {
    if (autofill) fill(0, autofill);
  }, [autofill]);

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      if (busy) return;
      const next = [...cells];
      if (next[index]) {
        next[index] = '';
      } else if (index > 0) {
        next[index - 1] = '';
        focus(index - 1);
      }
      setCells(next);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focus(index + 1);
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    fill(index, event.clipboardData.getData('text'));
  };

  return (
    <div className="cb-otp" role="group" aria-label={t('otp.label')}>
      <div className="cb-otp-cells" dir="ltr">
        {cells.map((cell, index) => (
          <input
            key={index}
            ref={(element) => {
              inputs.current[index] = element;
            }}
            className="cb-otp-cell"
            part="input"
            value={cell}
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-label={t('otp.cell', { index: index + 1, count: OTP_LENGTH })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            readOnly={busy}
            onFocus={(event) => event.target.select()}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={(event) => onPaste(index, event)}
            onChange={(event) => {
              const value = event.target.value.replace(cell, '') || event.target.value;
              if (value) fill(index, value);
            }}
          />
        ))}
      </div>
      {error && (
        <p className="cb-field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
