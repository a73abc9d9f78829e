import { useEffect, useRef, useState } from 'react';
import type { IdentifierType } from '../../../core/api/types';
import { Button } from '../../components/Button';
import { OtpInput } from '../../components/OtpInput';
import { ResendButton } from '../../components/ResendButton';
import { useT } from '../../context';
import { useWebOtp } from '../../blocks/email-verify/webOtp';
import { accountErrorText } from './accountErrorText';

interface Props {
  type: IdentifierType;
  /** the address or number as shown */
  value: string;
  /** sends a code (when it opens, and on a resend) */
  send: () => Promise<void>;
  /** checks the code; throws when it is refused */
  submit: (code: string) => Promise<void>;
  close: () => void;
  /** after the code was accepted */
  done?: () => void;
}

/**
 * A one-time code to an e-mail address or phone number (verifying it, or confirming it's you): a code
 * is sent when it opens, resent on request.
 */
export function CodeEntry({ type, value, send: sendCode, submit: check, close, done }: Props) {
  const t = useT();
  // an object, so that the same text twice still clears the cells
  const [error, setError] = useState<{ text: string }>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(0);
  const channel = type === 'phone' ? 'phone' : 'email';
  // the SMS code through WebOTP as on the sign-up's code screen, asked for once a code is on its way
  const [smsCode, setSmsCode] = useState<string>();
  useWebOtp(channel === 'phone' && sent > 0, setSmsCode);

  const send = () => {
    setError(undefined);
    sendCode().then(
      () => setSent((n) => n + 1),
      (failure: unknown) => setError({ text: accountErrorText(failure, type) }),
    );
  };
  const once = useRef(false);
  useEffect(() => {
    if (!once.current) send();
    once.current = true;
  });

  const submit = async (code: string) => {
    setBusy(true);
    try {
      await check(code);
      done?.();
    } catch (failure) {
      setError({ text: accountErrorText(failure, type) });
      setBusy(false);
    }
  };

  return (
    <div className="cb-form cb-account-form">
      <p className="cb-text">{t('user.codeSent', { value })}</p>
      <OtpInput onComplete={(code) => void submit(code)} autofill={smsCode} error={error?.text} errorKey={error} busy={busy} />
      <div className="cb-dialog-actions">
        <Button variant="secondary" onClick={close}>
          {t('common.cancel')}
        </Button>
        <ResendButton key={sent} onResend={send} label={t(`${channel}Otp.resend`)} />
      </div>
    </div>
  );
}
