// Project: its settings (the server's validation messages at each field), API secrets (shown once at
// creation; revoke), signing keys (rotate), webhook endpoints (add: signing secret shown once; disable, enable)
// and their deliveries (status, attempts, last error; redeliver). Support operators see the settings
// read-only and none of the rest.
import { useState, type FormEvent } from 'react';
import { ConsoleApiError, path } from '../api';
import { ErrorNote, Notice, useConsole, useLoad } from '../context';
import { SecretOnce, useActions } from '../dialogs';
import { formatTime } from '../format';
import { settingLabel } from '../i18n';
import { changedSettings, editableKeys, fieldKind, messagesByField, toDraft } from '../settingsForm';
import { Table } from '../Table';

type Row = Record<string, unknown>;

/** The list in an answer: `{ <name>: [...] }` or the array itself. */
export function listOf(answer: unknown, name: string): Row[] {
  if (Array.isArray(answer)) return answer as Row[];
  const list = (answer as Record<string, unknown> | null)?.[name];
  return Array.isArray(list) ? (list as Row[]) : [];
}

const text = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

function Settings({ project }: { project: string }) {
  const { api, t, may } = useConsole();
  const loaded = useLoad(() => api.get<Row>(path`/projects/${project}/settings`), [api, project]);
  const [drafts, setDrafts] = useState<Record<string, string | boolean>>({});
  const [messages, setMessages] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const editable = may('editSettings');
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (!loaded.data) return <p role="status">{t('common.loading')}</p>;
  const settings = ((loaded.data.settings as Row | undefined) ?? loaded.data) as Row;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setError(undefined);
    const { patch, invalid } = changedSettings(settings, drafts);
    if (invalid.length) return setMessages(Object.fromEntries(invalid.map((key) => [key, t('project.invalidJson')])));
    setMessages({});
    if (!Object.keys(patch).length) return setSaved(true);
    try {
      await api.patch(path`/projects/${project}/settings`, patch);
      setDrafts({});
      setSaved(true);
      loaded.reload();
    } catch (failure) {
      if (failure instanceof ConsoleApiError && failure.type === 'invalid') setMessages(messagesByField(failure.fields));
      setError(failure);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} className="settings-form" noValidate>
      {editableKeys(settings).map((key) => {
        const kind = fieldKind(settings[key]);
        const value = key in drafts ? drafts[key]! : toDraft(settings[key]);
        const id = `setting-${key}`;
        const message = messages[key];
        const described = message ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true } : {};
        const set = (next: string | boolean) => setDrafts({ ...drafts, [key]: next });
        return (
          <div className={`field ${kind}`} key={key}>
            {kind === 'boolean' ? (
              <label>
                <input id={id} type="checkbox" checked={Boolean(value)} disabled={!editable} onChange={(event) => set(event.target.checked)} {...described} /> {settingLabel(t, key)}
              </label>
            ) : (
              <>
                <label htmlFor={id}>{settingLabel(t, key)}</label>
                {kind === 'lines' || kind === 'json' ? (
                  <textarea id={id} value={String(value)} readOnly={!editable} rows={kind === 'json' ? 6 : 3} spellCheck={false} onChange={(event) => set(event.target.value)} {...described} />
                ) : (
                  <input id={id} type={kind === 'number' ? 'number' : 'text'} value={String(value)} readOnly={!editable} onChange={(event) => set(event.target.value)} {...described} />
                )}
              </>
            )}
            {message ? (
              <p id={`${id}-error`} className="field-error">
                {message}
              </p>
            ) : null}
          </div>
        );
      })}
      {error && !(error instanceof ConsoleApiError && error.type === 'invalid') ? <ErrorNote error={error} /> : null}
      {error instanceof ConsoleApiError && error.type === 'invalid' ? (
        <p className="error" role="alert">
          {error.message}
        </p>
      ) : null}
      {saved ? <Notice>{t('common.saved')}</Notice> : null}
      {editable ? <button type="submit">{t('common.save')}</button> : null}
    </form>
  );
}

function Secrets({ project }: { project: string }) {
  const { api, t, language } = useConsole();
  const list = useLoad(() => api.get<unknown>(path`/projects/${project}/secrets`), [api, project]);
  const [shown, setShown] = useState<string>();
  const { run, status } = useActions(list.reload);
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await api.post<{ secret: string }>(path`/projects/${project}/secrets`);
      setShown(answer.secret);
    });
  };
  const revoke = (secret: Row) =>
    void run(() => api.delete(`${path`/projects/${project}/secrets/`}${encodeURIComponent(text(secret.id))}`), {
      confirm: t('project.confirmRevoke', { last: text(secret.endsWith ?? secret.id) }),
    });
  return (
    <>
      <ErrorNote error={list.error} />
      {status}
      <ul className="rows">
        {listOf(list.data, 'secrets').map((secret) => (
          <li key={text(secret.id)}>
            <span>
              <code>…{text(secret.endsWith)}</code> {text(secret.label)} · {formatTime(text(secret.created), language)}
              {secret.revoked ? ` · ${t('project.revoke')}: ${formatTime(text(secret.revoked), language)}` : ''}
            </span>
            {!secret.revoked ? (
              <button type="button" className="danger" onClick={() => revoke(secret)}>
                {t('project.revoke')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <form onSubmit={create} className="inline">
        <button type="submit">{t('project.newSecret')}</button>
      </form>
      {shown ? <SecretOnce label={t('project.newSecretShown')} secret={shown} onClose={() => setShown(undefined)} /> : null}
    </>
  );
}

function Keys({ project }: { project: string }) {
  const { api, t, language } = useConsole();
  const list = useLoad(() => api.get<unknown>(path`/projects/${project}/keys`), [api, project]);
  const { run, status } = useActions(list.reload);
  return (
    <>
      <ErrorNote error={list.error} />
      {status}
      <ul className="rows">
        {listOf(list.data, 'keys').map((key) => (
          <li key={text(key.kid ?? key.id)}>
            <span>
              <code>{text(key.kid ?? key.id)}</code> · {formatTime(text(key.created), language)} {key.status ? `· ${text(key.status)}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void run(() => api.post(path`/projects/${project}/keys/rotate`), { confirm: t('project.confirmRotate') })}>
        {t('project.rotate')}
      </button>
    </>
  );
}

function Deliveries({ project, webhook }: { project: string; webhook: Row }) {
  const { api, t, language, may } = useConsole();
  const list = useLoad(() => api.get<unknown>(`${path`/projects/${project}/webhooks/`}${encodeURIComponent(text(webhook.id))}/deliveries`), [api, project, webhook.id]);
  const { run, status } = useActions(list.reload);
  const redeliver = (delivery: Row) =>
    void run(() => api.post(`${path`/projects/${project}/deliveries/`}${encodeURIComponent(text(delivery.id))}/redeliver`), {
      done: t('project.redelivered'),
    });
  const rows = listOf(list.data, 'deliveries');
  return (
    <>
      {status}
      <ErrorNote error={list.error} />
      {rows.length ? (
        <Table caption={t('project.showDeliveries', { url: text(webhook.url) })} head={[t('project.event'), t('common.status'), t('project.attempts'), t('project.lastError'), t('common.created'), t('common.actions')]}>
              {rows.map((delivery) => (
                <tr key={text(delivery.id)}>
                  <td>{text(delivery.event)}</td>
                  <td>{text(delivery.status)}</td>
                  <td>{text(delivery.attempts)}</td>
                  <td className="wrap">{text(delivery.lastError)}</td>
                  <td>{formatTime(text(delivery.created), language)}</td>
                  <td>
                    {may('redeliver') ? (
                      <button type="button" aria-label={`${t('project.redeliver')}: ${text(delivery.event)} ${text(delivery.id)}`} onClick={() => void redeliver(delivery)}>
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
    </>
  );
}

function Webhooks({ project }: { project: string }) {
  const { api, t, may, language } = useConsole();
  const list = useLoad(() => api.get<unknown>(path`/projects/${project}/webhooks`), [api, project]);
  const [url, setUrl] = useState('');
  const [shown, setShown] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [urlMessage, setUrlMessage] = useState<string>();
  const { run, status } = useActions(list.reload);
  const manage = may('manageWebhooks');
  const add = (event: FormEvent) => {
    event.preventDefault();
    setUrlMessage(undefined);
    void run(async () => {
      try {
        const answer = await api.post<{ secret: string }>(path`/projects/${project}/webhooks`, { url });
        setShown(answer.secret);
        setUrl('');
      } catch (failure) {
        // the address's own message at the field, anything else above
        if (!(failure instanceof ConsoleApiError && failure.fields.url)) throw failure;
        setUrlMessage(failure.fields.url);
      }
    });
  };
  const toggle = (webhook: Row) => run(() => api.patch(`${path`/projects/${project}/webhooks/`}${encodeURIComponent(text(webhook.id))}`, { enabled: !webhook.enabled }));
  return (
    <>
      <ErrorNote error={list.error} />
      {status}
      <ul className="rows">
        {listOf(list.data, 'webhooks').map((webhook) => (
          <li key={text(webhook.id)} className="webhook">
            <span className="wrap">
              {text(webhook.url)} · {t('project.enabled')}: {webhook.enabled === false ? t('common.no') : t('common.yes')}
              {webhook.disabled ? ` (${t('project.disabledSince', { at: formatTime(text(webhook.disabled), language) })})` : ''}
              {webhook.givenUp ? ` · ${t('project.givenUp', { count: text(webhook.givenUp) })}` : ''}
            </span>
            <span className="buttons">
              <button type="button" aria-expanded={open === webhook.id} onClick={() => setOpen(open === webhook.id ? undefined : text(webhook.id))}>
                {t('project.deliveries')}
              </button>
              {manage ? (
                <button type="button" aria-label={`${webhook.enabled === false ? t('project.enable') : t('project.disable')}: ${text(webhook.url)}`} onClick={() => void toggle(webhook)}>
                  {webhook.enabled === false ? t('project.enable') : t('project.disable')}
                </button>
              ) : null}
            </span>
            {open === webhook.id ? <Deliveries project={project} webhook={webhook} /> : null}
          </li>
        ))}
      </ul>
      {manage ? (
        <form onSubmit={add} className="inline" noValidate>
          <label htmlFor="webhook-url">{t('project.webhookUrl')}</label>
          <input id="webhook-url" type="url" value={url} onChange={(event) => setUrl(event.target.value)} {...(urlMessage ? { 'aria-invalid': true, 'aria-describedby': 'webhook-url-error' } : {})} />
          <button type="submit">{t('project.addWebhook')}</button>
          {urlMessage ? (
            <p id="webhook-url-error" className="field-error">
              {urlMessage}
            </p>
          ) : null}
        </form>
      ) : null}
      {shown ? <SecretOnce label={t('project.webhookSecret')} secret={shown} onClose={() => setShown(undefined)} /> : null}
    </>
  );
}

export function Project({ project }: { project: string }) {
  const { t, may, projects } = useConsole();
  const name = projects.find((p) => p.id === project)?.name ?? project;
  return (
    <>
      <h1>
        {t('project.title')}: {name}
      </h1>
      <section aria-labelledby="settings">
        <h2 id="settings">{t('project.settings')}</h2>
        <Settings project={project} />
      </section>
      {may('manageSecrets') ? (
        <section aria-labelledby="secrets">
          <h2 id="secrets">{t('project.secrets')}</h2>
          <Secrets project={project} />
        </section>
      ) : null}
      {may('rotateKeys') ? (
        <section aria-labelledby="keys">
          <h2 id="keys">{t('project.keys')}</h2>
          <Keys project={project} />
        </section>
      ) : null}
      <section aria-labelledby="webhooks">
        <h2 id="webhooks">{t('project.webhooks')}</h2>
        <Webhooks project={project} />
      </section>
    </>
  );
}

