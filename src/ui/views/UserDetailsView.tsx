import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { MeIdentifier } from '../../core/api/types';
import { displayPhone } from '../../core/validation/phone';
import { failureText } from '../components/ErrorPopup';
import { Header } from '../components/Header';
import { Identifier } from '../components/IdentifierLine';
import { ProviderMark } from '../components/Icon';
import { PleaseLogIn } from '../components/PleaseLogIn';
import { Spinner } from '../components/Spinner';
import { useApp, useT } from '../context';

function IdentifierRow({ identifier }: { identifier: MeIdentifier }) {
  const t = useT();
  const verified = identifier.status === 'verified';
  return (
    <li className="cb-row">
      <Identifier value={identifier.type === 'phone' ? displayPhone(identifier.value) : identifier.value} />
      <span className={verified ? 'cb-badge-pill cb-ok' : 'cb-badge-pill cb-pending'}>{t(verified ? 'user.verified' : 'user.pending')}</span>
    </li>
  );
}

/** Name, username, e-mails and phones with verified or pending badges, and social accounts. */
export function UserDetailsView() {
  const app = useApp();
  const t = useT();
  const user = useStore(app.session.$user);
  const me = useStore(app.account.$me);
  useEffect(() => {
    if (user) void app.account.loadMe();
  }, [app, user]);
  if (!user) return <PleaseLogIn />;
  if (me.state === 'failed') {
    return (
      <div className="cb-card">
        <p className="cb-popup" role="alert">
          {failureText(t, undefined, me.error, app.options.customerSupportEmail)}
        </p>
      </div>
    );
  }
  if (me.state !== 'ready') {
    return (
      <div className="cb-card">
        <Spinner />
      </div>
    );
  }
  const { fullName, identifiers, socialAccounts } = me.value;
  const section = (type: MeIdentifier['type']) => {
    const list = identifiers.filter((i) => i.type === type);
    if (!list.length) return null;
    return (
      <section className="cb-section">
        <h3 className="cb-section-title">{t(`user.${type}`)}</h3>
        <ul className="cb-rows">
          {list.map((identifier) => (
            <IdentifierRow key={identifier.id} identifier={identifier} />
          ))}
        </ul>
      </section>
    );
  };
  return (
    <div className="cb-card">
      <Header title={t('user.header')} level={2} />
      {fullName && (
        <section className="cb-section">
          <h3 className="cb-section-title">{t('user.name')}</h3>
          <p className="cb-text">{fullName}</p>
        </section>
      )}
      {section('username')}
      {section('email')}
      {section('phone')}
      {socialAccounts.length > 0 && (
        <section className="cb-section">
          <h3 className="cb-section-title">{t('user.social')}</h3>
          <ul className="cb-rows">
            {socialAccounts.map((account) => (
              <li className="cb-row" key={`${account.providerType}-${account.identifierValue}`}>
                <ProviderMark provider={account.providerType} />
                <span>{account.fullName || account.identifierValue}</span>
                <span className="cb-muted">
                  <Identifier value={account.identifierValue} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
