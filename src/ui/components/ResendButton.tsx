import { useEffect, useState } from 'react';
import { nowSeconds } from '../../core/storage';
import { useT } from '../context';
import { Button } from './Button';

export const DEFAULT_EMAIL_RESEND_SECONDS = 30;

interface Props {
  /** unix seconds from the server; without it, the default wait from when the screen appeared */
  retryNotBefore?: number;
  defaultWait?: number;
  busy?: boolean;
  onResend: () => void;
  label: string;
}

/** Disabled with a countdown in seconds until retryNotBefore. */
export function ResendButton({ retryNotBefore, defaultWait = DEFAULT_EMAIL_RESEND_SECONDS, busy, onResend, label }: Props) {
  const t = useT();
  const [until] = useState(() => nowSeconds() + defaultWait);
  const target = retryNotBefore ?? until;
  const [left, setLeft] = useState(() => Math.max(0, target - nowSeconds()));
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, target - nowSeconds()));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [target]);
  return (
    <Button variant="secondary" disabled={left > 0} busy={busy} onClick={onResend}>
      {left > 0 ? t('otp.resendIn', { label, seconds: left }) : label}
    </Button>
  );
}
