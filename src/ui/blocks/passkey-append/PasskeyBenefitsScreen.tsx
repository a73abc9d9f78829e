import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { Icon } from '../../components/Icon';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/** What a passkey is and why it helps; the main button runs the block's ceremony. */
export function PasskeyBenefitsScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, busy } = useBlock();
  const verify = block.type === 'passkey-verify';
  return (
    <div className="cb-form">
      <Icon name="passkey" className="cb-hero-icon" />
      <Header title={t('passkeyBenefits.header')} />
      <ul className="cb-benefits">
        <li>{t('passkeyBenefits.easy')}</li>
        <li>{t('passkeyBenefits.secure')}</li>
        <li>{t('passkeyBenefits.synced')}</li>
      </ul>
      <Button busy={busy} onClick={() => void (verify ? flow.loginWithPasskey() : flow.appendPasskey())}>
        {verify ? t('passkeyVerify.start') : t('passkeyAppend.create')}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={() => flow.setScreen(verify ? 'passkey-background' : 'passkey-append')}>
        {t('common.back')}
      </Button>
    </div>
  );
}
