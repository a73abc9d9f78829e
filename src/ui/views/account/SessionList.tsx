import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { $language } from '../../../core/i18n/i18n';
import { LinkButton } from '../../components/Button';
import { useApp, useT } from '../../context';
import { formatDate } from '../../formatDate';
import { accountErrorText } from './accountErrorText';

/**
 * The devices the user is signed in on: browser and OS, when it signed in and was last active, this
 * one marked; each other one can be signed out, or all of them at once. A device signed out here
 * learns it at its next session check (within seconds while its page is open).
 */
export function SessionList() {
  const { account } = useApp();
  const t = useT();
  const language = useStore($language);
  const sessions = useStore(account.$sessions);
  const busy = useStore(account.$busy);
  const [error, setError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => void account.loadSessions(), [account]);
  if (sessions.state !== 'ready') return null;
  // the row goes away: the focus goes to the section's heading
  const end = (id?: string) => {
    setError(undefined);
    account.endSession(id).then(() => heading.current?.focus(), (failure: unknown) => setError(accountErrorText(failure)));
  };
  return (
    <section className="cb-section">
      <h3 className="cb-section-title" tabIndex={-1} ref={heading}>
        {t('user.sessions')}
      </h3>
      <ul className="cb-rows">
        {sessions.value.map((session) => {
          const name = t('user.session', { browser: session.browser, os: session.os });
          return (
            <li className="cb-row" key={session.id}>
              <div>
                {name}
                <p className="cb-muted">{t('user.sessionTimes', { created: formatDate(session.created, language), lastUsed: formatDate(session.lastUsed, language) })}</p>
              </div>
              <span className="cb-row-actions">
                {session.current ? (
                  <span className="cb-badge-pill cb-ok">{t('user.thisDevice')}</span>
                ) : (
                  <LinkButton aria-label={`${t('user.endSession')}: ${name}`} disabled={busy} onClick={() => end(session.id)}>
                    {t('user.endSession')}
                  </LinkButton>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {sessions.value.length > 1 && (
        <LinkButton disabled={busy} onClick={() => end()}>
          {t('user.endOthers')}
        </LinkButton>
      )}
      {error && (
        <p className="cb-field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
