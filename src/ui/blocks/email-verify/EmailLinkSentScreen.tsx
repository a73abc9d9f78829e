import type { VerifyIdentifierData } from '../../../core/api/types';
import { Header } from '../../components/Header';
import { IdentifierLine } from '../../components/IdentifierLine';
import { ResendButton } from '../../components/ResendButton';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { MatchCode } from './EmailLinkApprovalScreen';
import { WebmailButton } from './webmail';

/** "Check your inbox": the address with an edit button, resend, and a shortcut to the webmail inbox. */
export function EmailLinkSentScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<VerifyIdentifierData>();
  const edit = () => (block.authType === 'login' ? void flow.abort() : flow.setScreen('edit-email'));
  return (
    <div className="cb-form">
      <Header title={t(`emailLink.${block.authType}.header`)} subtitle={t('emailLink.body')} />
      <IdentifierLine value={data.identifier} editLabel={t('emailOtp.edit')} onEdit={edit} />
      <p className="cb-text cb-muted" role="status">
        {t('emailLink.waiting')}
      </p>
      {data.matchCode && <MatchCode code={data.matchCode} />}
      <WebmailButton address={data.identifier} />
      <ResendButton retryNotBefore={data.retryNotBefore} busy={busy} label={t('emailLink.resend')} />
    </div>
  );
}
