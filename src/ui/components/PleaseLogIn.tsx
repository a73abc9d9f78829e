import { useT } from '../context';
import { Icon } from './Icon';

/** The passkey list and user details without a session. */
export function PleaseLogIn() {
  const t = useT();
  return (
    <div className="cb-card">
      <div className="cb-warning" role="status">
        <Icon name="warning" />
        <p>{t('account.pleaseLogIn')}</p>
      </div>
    </div>
  );
}
