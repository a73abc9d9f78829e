import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { canAddIdentifier } from '../../core/account/rules';
import type { MeIdentifier } from '../../core/api/types';
import { failureText } from '../components/ErrorPopup';
import { Header } from '../components/Header';
import { Identifier } from '../components/IdentifierLine';
import { ProviderMark } from '../components/Icon';
import { PleaseLogIn } from '../components/PleaseLogIn';
import { Spinner } from '../components/Spinner';
import { useApp, useT } from '../context';
import { AccountField } from './account/AccountField';
import { ConfirmItsYou } from './account/ConfirmItsYou';
import { DeleteAccount } from './account/DeleteAccount';
import { Disclosure } from './account/Disclosure';
import { IdentifierRow } from './account/IdentifierRow';

/**
 * Name, username, e-mails and phones with verified or pending badges, and social accounts; and the
 * account's management: change the name, add, verify, make primary or remove identifiers, delete it.
 */
export function UserDetailsView() {
  const app = useApp();
  const t = useT();
  const user = useStore(app.session.$user);
  const me = useStore(app.account.$me);
  const config = useStore(app.account.$config);
  useEffect(() => {
    if (user) void app.account.loadMe();
    if (user) void app.account.loadConfig();
  }, [app, user]);
  if (!user) return <PleaseLogIn />;
  if (me.state === 'failed' && !me.error.ignorable) {
    return (
      <div className="cb-card" part="container">
        <p className="cb-popup" part="error" role="alert">
          {failureText(t, undefined, me.error, app.options.customerSupportEmail)}
        </p>
      </div>
    );
  }
  if (me.state !== 'ready') {
    return (
      <div className="cb-card" part="container">
        <Spinner />
      </div>
    );
  }
  const { fullName, identifiers, socialAccounts } = me.value;
  const section = (type: MeIdentifier['type']) => {
    const list = identifiers.filter((i) => i.type === type);
    const addable = canAddIdentifier(config, type, identifiers);
    if (!list.length && !addable) return null;
    return (
      <section className="cb-section">
        <h3 className="cb-section-title" tabIndex={-1}>
          {t(`user.${type}`)}
        </h3>
        <ul className="cb-rows">
          {list.map((identifier) => (
            <IdentifierRow key={identifier.id} identifier={identifier} all={identifiers} config={config} />
          ))}
        </ul>
        {addable && (
          <Disclosure label={t(`user.add.${type}`)}>
            {(close) => <AccountField kind={type} save={(value) => app.account.addIdentifier(type, value)} close={close} />}
          </Disclosure>
        )}
      </section>
    );
  };
  return (
    <div className="cb-card" part="container">
      <Header title={t('user.header')} level={2} />
      <section className="cb-section">
        <h3 className="cb-section-title">{t('user.name')}</h3>
        {fullName && <p className="cb-text">{fullName}</p>}
        <Disclosure label={t('common.edit')} about={t('user.name')}>
          {(close) => (
            <AccountField kind="fullName" initial={fullName} optional={!config?.fullNameRequired} save={(name) => app.account.updateName(name)} close={close} />
          )}
        </Disclosure>
      </section>
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
      <DeleteAccount />
      <ConfirmItsYou view="details" />
    </div>
  );
}
