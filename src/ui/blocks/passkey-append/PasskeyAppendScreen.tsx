import type { PasskeyAppendData } from '../../../core/api/types';
import { displayPhone } from '../../../core/validation/phone';
import { Button, LinkButton } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { IdentifierLine } from '../../components/IdentifierLine';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { FallbackButtons } from './FallbackButtons';
import { PasskeyExistsDialog } from './PasskeyExistsDialog';

/** Offer a passkey: create it, learn what passkeys are, "Maybe later" when skippable, or a fallback. */
export function PasskeyAppendScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<PasskeyAppendData>();
  const canSkip = flow.canSkip(block);
  const identifier = data.identifierType === 'phone' ? displayPhone(data.identifierValue) : data.identifierValue;
  return (
    <div className="cb-form">
      <Icon name="passkey" className="cb-hero-icon" />
      <Header title={t(`passkeyAppend.${data.variant === 'after-hybrid' ? 'afterHybrid' : block.authType}.header`)} subtitle={t('passkeyAppend.body')} />
      <IdentifierLine
        value={identifier}
        editLabel={t(`edit.header.${data.identifierType}`)}
        onEdit={canSkip ? undefined : () => flow.setScreen('edit-user-data')}
      />
      <Button busy={busy} onClick={() => void flow.appendPasskey()}>
        {t('passkeyAppend.create')}
      </Button>
      <LinkButton onClick={() => flow.setScreen('passkey-benefits')}>
        {t('passkeyAppend.learnMore')}
      </LinkButton>
      <FallbackButtons disabled={busy} />
      {canSkip && (
        <Button variant="secondary" disabled={busy} onClick={() => void flow.skipPasskey()}>
          {t('passkeyAppend.skip')}
        </Button>
      )}
      <PasskeyExistsDialog />
    </div>
  );
}
