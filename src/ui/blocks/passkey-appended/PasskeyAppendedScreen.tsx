import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/** The passkey was created; continue skips to the next block. */
export function PasskeyAppendedScreen() {
  const { flow } = useApp();
  const t = useT();
  const { busy } = useBlock();
  return (
    <div className="cb-form cb-center">
      <Icon name="check" className="cb-hero-icon" />
      <Header title={t('passkeyAppended.header')} subtitle={t('passkeyAppended.body')} />
      <Button busy={busy} onClick={() => void flow.skipBlock()}>
        {t('common.continue')}
      </Button>
    </div>
  );
}
