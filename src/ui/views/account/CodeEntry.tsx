import { useEffect, useRef, useState } from 'react';
import type { MeIdentifier } from '../../../core/api/types';
import { Button } from '../../components/Button';
import { OtpInput } from '../../components/OtpInput';
import { ResendButton } from '../../components/ResendButton';
import { useApp, useT } from '../../context';
import { accountErrorText } from './accountErrorText';

interface Props {
  identifier: MeIdentifier;
  /** the identifier as shown */
  value: string;
  close: () => void;
  verified: () => void;
}

/** Verifies a pending e-mail address or phone number: a code is sent when it opens, resent on request. */
export function CodeEntry({ identifier, value, close, verified }: Props) {
  const { account } = useApp();
  const t = useT();
  // an object, so that the same text twice still clears the cells
  const [error, setError] = useState<{ text: string }>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(0);
  const channel = identifier.type === 'phone' ? 'phone' : 'email';

  const send = () => {
    setError(undefined);
    account.sendCode(identifier).then(
      () => setSent((n) => n + 1),
      (failure: unknown) => setError({ text: accountErrorText(failure, identifier.type) }),
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
      await account.verifyIdentifier(identifier, code);
      close();
      verified();
    } catch (failure) {
      setError({ text: accountErrorText(failure, identifier.type) });
      setBusy(false);
    }
  };

  return (
    <div className="cb-form cb-account-form">
      <p className="cb-text">{t('user.codeSent', { value })}</p>
      <OtpInput onComplete={(code) => void submit(code)} error={error?.text} errorKey={error} busy={busy} />
      <div className="cb-dialog-actions">
        <Button variant="secondary" onClick={close}>
          {t('common.cancel')}
        </Button>
        <ResendButton key={sent} onResend={send} label={t(`${channel}Otp.resend`)} />
      </div>
    </div>
  );
}
