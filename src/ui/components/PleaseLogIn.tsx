import { useStore } from '@nanostores/react';
import { useApp, useT } from '../context';
import { Icon } from './Icon';
import { Spinner } from './Spinner';

/** The passkey list and user details without a session (a spinner while a returning visitor is signed back in). */
export function PleaseLogIn() {
  const t = useT();
  const restoring = useStore(useApp().session.$restoring);
  if (restoring) {
    return (
      <div className="cb-card" part="container">
        <Spinner />
      </div>
    );
  }
  return (
    <div className="cb-card" part="container">
      <div className="cb-warning" role="status">
        <Icon name="warning" />
        <p>{t('account.pleaseLogIn')}</p>
      </div>
    </div>
  );
}
