import { useState } from 'react';
import type { VerifyIdentifierData } from '../../../core/api/types';
import { displayPhone } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { IdentifierLine } from '../../components/IdentifierLine';
import { OtpInput } from '../../components/OtpInput';
import { ResendButton } from '../../components/ResendButton';
import { Spinner } from '../../components/Spinner';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';
import { useWebOtp } from './webOtp';
import { WebmailButton } from './webmail';

/**
 * A one-time code step: email-otp-verification and phone-otp share this screen. Editing the identifier
 * opens its edit screen during sign-up; during log-in it starts over. After sign-up
 * (post-signup-email-verify) the code may be put off.
 */
export function OtpScreen({ channel }: { channel: 'email' | 'phone' }) {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<VerifyIdentifierData>();
  // a failed submit clears the cells, also when the block stays the same (server unreachable, rate
  // limit): its failure is attached to the block
  // a phone that reads the SMS for the page (WebOTP) fills the cells, which then submit as when typed
  const [smsCode, setSmsCode] = useState<string>();
  useWebOtp(channel === 'phone', setSmsCode);
  const key = `${channel}Otp.${block.authType}`;
  const identifier = channel === 'phone' ? displayPhone(data.identifier) : data.identifier;
  const edit = () => (block.authType === 'login' ? void flow.abort() : flow.setScreen(channel === 'phone' ? 'edit-phone' : 'edit-email'));
  return (
    <div className="cb-form">
      <Header title={t(`${key}.header`)} subtitle={t(`${channel}Otp.body`)} />
      <IdentifierLine value={identifier} editLabel={t(`${channel}Otp.edit`)} onEdit={edit} />
      <OtpInput onComplete={(code) => void flow.submitCode(code)} autofill={smsCode} error={requestErrorText(data.error)} errorKey={block.failure ?? block} busy={busy} />
      {busy && <Spinner />}
      {channel === 'email' && <WebmailButton address={data.identifier} />}
      <ResendButton
        retryNotBefore={data.retryNotBefore}
        busy={busy}
        label={t(`${channel}Otp.resend`)}
      />
      {block.type === 'post-signup-email-verify' && flow.canSkip(block) && (
        <Button variant="secondary" disabled={busy} onClick={() => void flow.skipBlock()}>
          {t('emailOtp.later')}
        </Button>
      )}
    </div>
  );
}
