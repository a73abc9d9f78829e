import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { identifierActions } from '../../../core/account/rules';
import type { MeIdentifier, UserDetailsConfig } from '../../../core/api/types';
import { displayPhone } from '../../../core/validation/phone';
import { LinkButton } from '../../components/Button';
import { Identifier } from '../../components/IdentifierLine';
import { Dialog } from '../../components/Dialog';
import { useApp, useT } from '../../context';
import { AccountField } from './AccountField';
import { accountErrorText } from './accountErrorText';
import { CodeEntry } from './CodeEntry';
import { Disclosure } from './Disclosure';

interface Props {
  identifier: MeIdentifier;
  /** all the user's identifiers */
  all: MeIdentifier[];
  config: UserDetailsConfig | undefined;
}

/**
 * One identifier with its badges and what can be done with it: verify a pending address or number by
 * code, make a verified one primary when there are several of its type, change a username, and remove
 * it unless it is the last verified identifier the user logs in with. The badges and "Make primary" have
 * a text per identifier type: French and Polish make them agree with the noun (une adresse vérifiée,
 * un numéro vérifié; nazwa potwierdzona).
 */
export function IdentifierRow({ identifier, all, config }: Props) {
  const { account } = useApp();
  const t = useT();
  const busy = useStore(account.$busy);
  const [error, setError] = useState<string>();
  const row = useRef<HTMLLIElement>(null);
  const verified = identifier.status === 'verified';
  const value = identifier.type === 'phone' ? displayPhone(identifier.value) : identifier.value;
  const { several, removable } = identifierActions(config, identifier, all);
  const focusRow = () => row.current?.focus();

  const run = (change: () => Promise<void>, after: () => void) => {
    setError(undefined);
    change().then(after, (failure: unknown) => setError(accountErrorText(failure, identifier.type)));
  };

  return (
    <li className="cb-row" ref={row} tabIndex={-1}>
      <Identifier value={value} />
      {identifier.primary && several && <span className="cb-badge-pill">{t(`user.primary.${identifier.type}`)}</span>}
      <span className={verified ? 'cb-badge-pill cb-ok' : 'cb-badge-pill cb-pending'}>{verified ? t(`user.verified.${identifier.type}`) : t('user.pending')}</span>
      <span className="cb-row-actions">
        {!verified && identifier.type !== 'username' && (
          <Disclosure label={t('user.verify')} about={value}>
            {(close) => (
              <CodeEntry
                type={identifier.type}
                value={value}
                send={() => account.sendCode(identifier)}
                submit={(code) => account.verifyIdentifier(identifier, code)}
                close={close}
                done={() => (close(), focusRow())}
              />
            )}
          </Disclosure>
        )}
        {identifier.type === 'username' && (
          <Disclosure label={t('common.edit')} about={value}>
            {(close) => <AccountField kind="username" initial={identifier.value} save={(next) => account.updateIdentifier(identifier, next)} close={close} />}
          </Disclosure>
        )}
        {verified && several && !identifier.primary && (
          <LinkButton aria-label={`${t(`user.makePrimary.${identifier.type}`)}: ${value}`} disabled={busy} onClick={() => run(() => account.updateIdentifier(identifier, identifier.value, true), focusRow)}>
            {t(`user.makePrimary.${identifier.type}`)}
          </LinkButton>
        )}
        {removable && (
          <Disclosure label={t('user.remove')} about={value} disabled={busy}>
            {(close) => (
              <Dialog
                title={t('user.removeHeader', { value })}
                body={t('user.removeBody')}
                confirm={t('user.remove')}
                cancel={t('common.cancel')}
                danger
                onCancel={close}
                onConfirm={() => {
                  const section = row.current?.closest('section')?.querySelector('h3');
                  close();
                  run(() => account.removeIdentifier(identifier), () => section?.focus());
                }}
              />
            )}
          </Disclosure>
        )}
      </span>
      {error && (
        <p className="cb-field-error cb-account-form" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
