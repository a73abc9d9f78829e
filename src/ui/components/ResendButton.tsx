import { useEffect, useState } from 'react';
import type { FlowBlock } from '../../core/process/block';
import type { ScreenName } from '../../core/process/screens';
import { nowSeconds } from '../../core/storage';
import { displayPhone } from '../../core/validation/phone';
import { useAnnounce, useApp, useT } from '../context';
import { Button } from './Button';

export const DEFAULT_EMAIL_RESEND_SECONDS = 30;

interface Props {
  /** unix seconds from the server; without it, the default wait from when the screen appeared */
  retryNotBefore?: number;
  defaultWait?: number;
  busy?: boolean;
  label: string;
  /** what resending is, where it is not the flow's code or link (the account's codes) */
  onResend?: () => Promise<void> | void;
}

/** What a code or link screen has sent, for the live region: on arriving there and after a resend. */
export function sentText(t: (key: string, values: Record<string, string>) => string, screen: ScreenName, block: FlowBlock): string | undefined {
  const identifier = String(block.data.identifier ?? '');
  if (screen === 'email-link-sent') return t('a11y.linkSent', { identifier });
  if (screen === 'email-otp-verification' || screen === 'phone-otp') {
    return t('a11y.codeSent', { identifier: screen === 'phone-otp' ? displayPhone(identifier) : identifier });
  }
  return undefined;
}

/** Resends the code or link; disabled with a countdown in seconds until retryNotBefore. */
export function ResendButton({ retryNotBefore, defaultWait = DEFAULT_EMAIL_RESEND_SECONDS, busy, label, onResend }: Props) {
  const { flow } = useApp();
  const t = useT();
  const announce = useAnnounce();
  const [until] = useState(() => nowSeconds() + defaultWait);
  const target = retryNotBefore ?? until;
  const [left, setLeft] = useState(() => Math.max(0, target - nowSeconds()));
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, target - nowSeconds()));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [target]);
  const resend = async () => {
    if (onResend) return onResend();
    await flow.resend();
    const block = flow.$block.get();
    const sent = block && sentText(t, flow.$screen.get(), block);
    if (sent && !block?.failure) announce(sent);
  };
  return (
    <Button variant="secondary" disabled={left > 0} busy={busy} onClick={() => void resend()}>
      {left > 0 ? t('otp.resendIn', { label, seconds: left }) : label}
    </Button>
  );
}
