import { useStore } from '@nanostores/react';
import { isVerification } from '../../../core/process/lastUser';
import { displayPhone } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { IdentifierLine } from '../../components/IdentifierLine';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/**
 * welcome-back (login-init): the account this browser logged in last, with the way it used as the one
 * action, and "Use another account", which forgets it and shows the plain log-in.
 */
export function WelcomeBackScreen() {
  const { flow } = useApp();
  const t = useT();
  const { busy } = useBlock();
  const user = useStore(flow.$lastUser);
  if (!user) return null;
  const { method } = user;
  return (
    <div className="cb-form">
      <Header title={t('welcomeBack.header')} />
      <IdentifierLine value={user.type === 'phone' ? displayPhone(user.value) : user.value} />
      <Button busy={busy} onClick={() => void flow.continueAsLastUser()}>
        {method === 'passkey'
          ? t('passkeyVerify.start')
          : isVerification(method)
            ? t(`welcomeBack.${method}`)
            : method
              ? t('social.continueWith', { provider: t(`social.${method}`) })
              : t('loginInit.submit')}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={() => flow.forgetLastUser()}>
        {t('welcomeBack.other')}
      </Button>
    </div>
  );
}
