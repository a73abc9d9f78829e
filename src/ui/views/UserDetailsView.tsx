import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { canAddIdentifier } from '../../core/account/rules';
import { $language } from '../../core/i18n/i18n';
import type { MeIdentifier, MeSocialAccount } from '../../core/api/types';
import { failureText } from '../components/ErrorPopup';
import { Header } from '../components/Header';
import { Identifier } from '../components/IdentifierLine';
import { Dialog } from '../components/Dialog';
import { ProviderMark } from '../components/Icon';
import { PleaseLogIn } from '../components/PleaseLogIn';
import { Spinner } from '../components/Spinner';
import { useApp, useT } from '../context';
import { AccountField } from './account/AccountField';
import { accountErrorText } from './account/accountErrorText';
import { ConfirmItsYou } from './account/ConfirmItsYou';
import { DeleteAccount } from './account/DeleteAccount';
import { Disclosure } from './account/Disclosure';
import { IdentifierRow } from './account/IdentifierRow';
import { fieldLabel } from '../blocks/signup-init/SignupFieldInput';
import { formatDate } from '../formatDate';
import { SessionList } from './account/SessionList';

/**
 * Name, username, e-mails and phones with verified or pending badges, social accounts and the devices
 * signed in; and the account's management: change the name, add, verify, make primary or remove
 * identifiers, sign other devices out, delete it.
 */
export function UserDetailsView() {
  const app = useApp();
  const t = useT();
  const user = useStore(app.session.$user);
  const me = useStore(app.account.$me);
  const config = useStore(app.account.$config);
  const language = useStore($language);
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
  const { fullName, identifiers, socialAccounts, signupFields } = me.value;
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
              <SocialAccountRow key={account.id ?? `${account.providerType}-${account.identifierValue}`} account={account} />
            ))}
          </ul>
        </section>
      )}
      {signupFields?.length ? (
        <section className="cb-section">
          <h3 className="cb-section-title">{t('user.signupFields')}</h3>
          <ul className="cb-rows">
            {signupFields.map((field) => (
              <li className="cb-row" key={field.id}>
                <span>{fieldLabel(field.label, language).replace(/[[\]]/g, '') || field.id}</span>
                <span className="cb-muted">
                  {field.type === 'text'
                    ? field.value
                    : field.accepted
                      ? t('user.accepted', { date: formatDate(field.answeredAt, language), version: field.version ?? '' })
                      : t('user.notAccepted')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <SessionList />
      <DeleteAccount />
      <ConfirmItsYou view="details" />
    </div>
  );
}

/** A linked provider account, with "Remove" (unlink) where the server names it; the server keeps the last way in. */
function SocialAccountRow({ account }: { account: MeSocialAccount }) {
  const app = useApp();
  const t = useT();
  const busy = useStore(app.account.$busy);
  const [error, setError] = useState<string>();
  const row = useRef<HTMLLIElement>(null);
  const name = t(`social.${account.providerType}`);
  return (
    <li className="cb-row" ref={row}>
      <ProviderMark provider={account.providerType} />
      <span>{account.fullName || account.identifierValue}</span>
      <span className="cb-muted">
        <Identifier value={account.identifierValue} />
      </span>
      {account.id && (
        <span className="cb-row-actions">
          <Disclosure label={t('user.remove')} about={name} disabled={busy}>
            {(close) => (
              <Dialog
                title={t('user.removeHeader', { value: name })}
                body={t('user.removeBody')}
                confirm={t('user.remove')}
                cancel={t('common.cancel')}
                danger
                onCancel={close}
                onConfirm={() => {
                  const heading = row.current?.closest('.cb-card')?.querySelector('h2');
                  close();
                  setError(undefined);
                  app.account.unlinkSocialAccount(account.id!).then(
                    () => heading?.focus(),
                    (failure: unknown) => setError(accountErrorText(failure)),
                  );
                }}
              />
            )}
          </Disclosure>
        </span>
      )}
      {error && (
        <p className="cb-field-error cb-account-form" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
