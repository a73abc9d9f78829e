import { useEffect, useRef } from 'react';
import type { PasskeyVerifyData } from '../../../core/api/types';
import { Button, LinkButton } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { IdentifierLine } from '../../components/IdentifierLine';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { FallbackButtons } from '../passkey-append/FallbackButtons';

/** passkey-background: starts the passkey log-in by itself, once; fallbacks and a way back meanwhile. */
export function PasskeyBackgroundScreen() {
  const { flow } = useApp();
  const t = useT();
  const { data, busy } = useBlock<PasskeyVerifyData>();
  const started = useRef(false);
  // once the action that led here is over: started while it still runs, the log-in would be dropped
  useEffect(() => {
    if (started.current || busy) return;
    started.current = true;
    void flow.loginWithPasskey({ automatic: true });
  }, [flow, busy]);
  return (
    <div className="cb-form">
      <Icon name="passkey" className="cb-hero-icon" />
      <Header title={t('passkeyVerify.header')} subtitle={t('passkeyVerify.body')} />
      <IdentifierLine value={data.identifierValue} editLabel={t('common.startOver')} onEdit={() => void flow.abort()} />
      <Button busy={busy} onClick={() => void flow.loginWithPasskey()}>
        {t('passkeyVerify.start')}
      </Button>
      <FallbackButtons disabled={busy} />
      <LinkButton onClick={() => flow.setScreen('passkey-benefits')}>
        {t('passkeyAppend.learnMore')}
      </LinkButton>
    </div>
  );
}
