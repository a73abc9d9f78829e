// A user's page: identifiers, passkeys (the catalogue's name and icon), provider links, sign-up answers
// with their consent, sessions, webhook deliveries about them and their trail; the actions the
// operator's role allows, destructive ones after a confirmation.
import { path } from '../api';
import { ErrorNote, useConsole, useLoad } from '../context';
import { useActions } from '../dialogs';
import { formatTime } from '../format';
import { routeHash } from '../route';
import { Table } from '../Table';
import { TrailTable, type AuditRecord } from '../TrailTable';
import type { Identifier, UserSummary } from './Users';

export interface UserDetails {
  user: UserSummary;
  identifiers: Identifier[];
  passkeys: { id: string; name: string; aaguidName?: string | null; iconUrl?: string | null; created: string; lastUsed?: string | null; synced: boolean }[];
  socialAccounts: { id?: string; provider: string; email?: string | null; subject?: string; created?: string }[];
  signupFields: { id: string; answer: unknown; consent?: { label: string; url?: string; language: string; source: string; at: string } | null }[];
  sessions: { id: string; browser: string; os: string; created: string; lastUsed?: string | null }[];
  deliveries: { id: string; event: string | null; status: string; attempts: number; lastError?: string | null; endpointId: string; endpointUrl: string; created: string }[];
  trail: AuditRecord[];
}

export function User({ project, userId }: { project: string; userId: string }) {
  const { api, t, language, may, navigate } = useConsole();
  const details = useLoad(() => api.get<UserDetails>(path`/projects/${project}/users/${userId}`), [api, project, userId]);
  const { run, busy, status } = useActions(details.reload);
  const deletion = useActions(() => navigate({ page: 'users', project, query: {} }));
  const base = path`/projects/${project}/users/${userId}`;
  const act = (action: () => Promise<unknown>, confirm?: string, done?: string) => run(action, { confirm, done });

  if (details.error) return <ErrorNote error={details.error} />;
  if (!details.data) return <p role="status">{t('common.loading')}</p>;
  const { user, identifiers, passkeys, socialAccounts, signupFields, sessions, deliveries, trail } = details.data;
  const name = user.fullName || identifiers.find((identifier) => identifier.primary)?.value || user.id;
  const disabled = user.status === 'disabled' || user.status === 'blocked';

  return (
    <>
      <p>
        <a href={routeHash({ page: 'users', project, query: {} })}>{t('user.back')}</a>
      </p>
      <h1>{name}</h1>
      <dl className="facts">
        <dt>{t('users.id')}</dt>
        <dd>{user.id}</dd>
        <dt>{t('common.status')}</dt>
        <dd data-testid="user-status">{user.status}</dd>
        {user.externalId ? (
          <>
            <dt>{t('user.externalId')}</dt>
            <dd>{user.externalId}</dd>
          </>
        ) : null}
        <dt>{t('common.created')}</dt>
        <dd>{formatTime(user.created, language)}</dd>
      </dl>
      {status}
      {deletion.status}
      <div className="buttons">
        {may('endSessions') && sessions.length ? (
          <button type="button" disabled={busy} onClick={() => void act(() => api.post(`${base}/sessions/end-all`), t('user.confirmEndAll', { name }))}>
            {t('user.endAll')}
          </button>
        ) : null}
        {may('disableUser') ? (
          disabled ? (
            <button type="button" disabled={busy} onClick={() => void act(() => api.post(`${base}/enable`))}>
              {t('user.enable')}
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void act(() => api.post(`${base}/disable`), t('user.confirmDisable', { name }))}>
              {t('user.disable')}
            </button>
          )
        ) : null}
        {may('deleteUser') ? (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void deletion.run(() => api.delete(base), { confirm: t('user.confirmDelete', { name }) })}
          >
            {t('user.delete')}
          </button>
        ) : null}
      </div>

      <section aria-labelledby="identifiers">
        <h2 id="identifiers">{t('user.identifiers')}</h2>
        <Table head={[t('user.type'), t('user.value'), t('common.status'), t('user.primary'), t('common.actions')]}>
              {identifiers.map((identifier) => (
                <tr key={identifier.id}>
                  <td>{identifier.type}</td>
                  <th scope="row">{identifier.value}</th>
                  <td>{identifier.status}</td>
                  <td>{identifier.primary ? t('common.yes') : t('common.no')}</td>
                  <td className="actions">
                    {may('sendVerification') && identifier.type !== 'username' && identifier.status !== 'verified' ? (
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() =>
                          void act(() => api.post(`${base}${path`/identifiers/${identifier.id}/send-verification`}`), undefined, t('user.verificationSent', { value: identifier.value }))
                        }
                      >
                        {t('user.sendVerification', { value: identifier.value })}
                      </button>
                    ) : null}
                    {may('removeIdentifier') ? (
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => void act(() => api.delete(`${base}${path`/identifiers/${identifier.id}`}`), t('user.confirmRemoveIdentifier', { value: identifier.value }))}
                      >
                        {t('user.removeIdentifier', { value: identifier.value })}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </Table>
      </section>

      <section aria-labelledby="passkeys">
        <h2 id="passkeys">{t('user.passkeys')}</h2>
        {passkeys.length ? (
          <ul className="cards">
            {passkeys.map((passkey) => (
              <li key={passkey.id}>
                {passkey.iconUrl ? <img src={passkey.iconUrl} alt="" width={32} height={32} /> : null}
                <div>
                  <p className="strong">{passkey.name}</p>
                  <p>
                    {t('user.authenticator')}: {passkey.aaguidName ?? '—'} · {passkey.synced ? t('user.synced') : t('user.deviceBound')}
                  </p>
                  <p>
                    {t('common.created')}: {formatTime(passkey.created, language)} · {t('user.lastUsed')}: {formatTime(passkey.lastUsed, language) || '—'}
                  </p>
                </div>
                {may('removePasskey') ? (
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    onClick={() => void act(() => api.delete(`${base}${path`/passkeys/${passkey.id}`}`), t('user.confirmRemovePasskey', { name: passkey.name }))}
                  >
                    {t('user.removePasskey', { name: passkey.name })}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('common.none')}</p>
        )}
      </section>

      <section aria-labelledby="providers">
        <h2 id="providers">{t('user.providers')}</h2>
        {socialAccounts.length ? (
          <ul>
            {socialAccounts.map((account, i) => (
              <li key={account.id ?? i}>
                {account.provider}
                {account.email ? ` (${account.email})` : ''}
                {account.created ? ` · ${formatTime(account.created, language)}` : ''}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('common.none')}</p>
        )}
      </section>

      <section aria-labelledby="signup-fields">
        <h2 id="signup-fields">{t('user.signupFields')}</h2>
        {signupFields.length ? (
          <dl className="facts">
            {signupFields.map((field) => (
              <div key={field.id}>
                <dt>{field.id}</dt>
                <dd>
                  {typeof field.answer === 'string' ? field.answer : JSON.stringify(field.answer)}
                  {field.consent ? (
                    <span className="sub">
                      {t('user.consent')}:{' '}
                      {t('user.consentOf', { label: field.consent.label, language: field.consent.language, source: field.consent.source, at: formatTime(field.consent.at, language) })}
                      {field.consent.url ? (
                        <>
                          {' '}
                          <a href={field.consent.url} rel="noreferrer noopener" target="_blank">
                            {field.consent.url}
                          </a>
                        </>
                      ) : null}
                    </span>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p>{t('common.none')}</p>
        )}
      </section>

      <section aria-labelledby="sessions">
        <h2 id="sessions">{t('user.sessions')}</h2>
        {sessions.length ? (
          <Table head={[t('user.browser'), t('user.os'), t('common.created'), t('user.lastUsed'), t('common.actions')]}>
                {sessions.map((session) => (
                  <tr key={session.id}>
                    <th scope="row">{session.browser}</th>
                    <td>{session.os}</td>
                    <td>{formatTime(session.created, language)}</td>
                    <td>{formatTime(session.lastUsed, language)}</td>
                    <td className="actions">
                      {may('endSessions') ? (
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`${t('user.endSession')}: ${session.browser}, ${session.os}`}
                          onClick={() => void act(() => api.post(`${base}${path`/sessions/${session.id}/end`}`))}
                        >
                          {t('user.endSession')}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </Table>
        ) : (
          <p>{t('common.none')}</p>
        )}
      </section>

      <section aria-labelledby="deliveries">
        <h2 id="deliveries">{t('user.deliveries')}</h2>
        {deliveries.length ? (
          <Table head={[t('project.event'), t('common.status'), t('project.attempts'), t('project.lastError'), t('user.endpoint'), t('common.created'), t('common.actions')]}>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.event ?? ''}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.attempts}</td>
                    <td className="wrap">{delivery.lastError ?? ''}</td>
                    <td className="wrap">{delivery.endpointUrl}</td>
                    <td>{formatTime(delivery.created, language)}</td>
                    <td>
                      {may('redeliver') ? (
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`${t('project.redeliver')}: ${delivery.event ?? ''} ${delivery.id}`}
                          onClick={() => void act(() => api.post(path`/projects/${project}/deliveries/${delivery.id}/redeliver`), undefined, t('project.redelivered'))}
                        >
                          {t('project.redeliver')}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </Table>
        ) : (
          <p>{t('common.none')}</p>
        )}
      </section>

      <section aria-labelledby="user-trail">
        <h2 id="user-trail">{t('user.trail')}</h2>
        <TrailTable project={project} events={trail} caption={t('user.trail')} />
        <p>
          <a href={routeHash({ page: 'trail', project, query: { user: user.id } })}>{t('nav.trail')} →</a>
        </p>
      </section>
    </>
  );
}
