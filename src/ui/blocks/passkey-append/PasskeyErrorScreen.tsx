import { useStore } from '@nanostores/react';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { FallbackButtons } from './FallbackButtons';
import { PasskeyExistsDialog } from './PasskeyExistsDialog';

/**
 * A passkey ceremony failed: try again, use a fallback, and skip (when allowed) or cancel. For log-in,
 * cancel starts over; for an append it returns to the offer.
 */
export function PasskeyErrorScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, busy } = useBlock();
  const failure = useStore(flow.$ceremonyError);
  const verify = block.type === 'passkey-verify';
  const reason = failure?.kind === 'webauthn' ? failure.message : t(failure?.translationKey ?? 'errors.passkeyChallengeCancelled');
  return (
    <div className="cb-form">
      <Icon name="warning" className="cb-hero-icon cb-warn" />
      <Header title={t(verify ? 'passkeyError.loginHeader' : 'passkeyError.appendHeader')} subtitle={reason} />
      <Button busy={busy} onClick={() => void (verify ? flow.loginWithPasskey() : flow.appendPasskey())}>
        {t('passkeyError.retry')}
      </Button>
      <FallbackButtons disabled={busy} />
      {!verify && flow.canSkip(block) ? (
        <Button variant="secondary" disabled={busy} onClick={() => void flow.skipPasskey()}>
          {t('passkeyAppend.skip')}
        </Button>
      ) : (
        <Button variant="secondary" disabled={busy} onClick={() => (verify ? void flow.abort() : flow.setScreen('passkey-append'))}>
          {t('common.cancel')}
        </Button>
      )}
      <PasskeyExistsDialog />
    </div>
  );
}
