// Operators (owner only): invite (an address, a role, the projects of an admin or support operator),
// change a role, remove.
import { useState, type FormEvent } from 'react';
import { ConsoleApiError, path, projectId, type Operator, type Role } from '../api';
import { ErrorNote, useConsole, useLoad } from '../context';
import { useActions } from '../dialogs';
import { Table } from '../Table';

const ROLES: Role[] = ['owner', 'admin', 'support'];

/** "pro-1, pro-2" as a list of project ids. */
export function projectList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter(Boolean);
}

export function Operators() {
  const { api, t, operator: me } = useConsole();
  const list = useLoad(() => api.get<{ operators: Operator[] }>('/operators'), [api]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [projects, setProjects] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const { run, status } = useActions(list.reload);

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    await run(async () => {
      try {
        await api.post('/operators', { email, role, projects: role === 'owner' ? [] : projectList(projects) });
        setEmail('');
        setProjects('');
      } catch (failure) {
        // the server's messages at their fields, anything else above
        if (!(failure instanceof ConsoleApiError && Object.keys(failure.fields).length)) throw failure;
        setFields(failure.fields);
      }
    });
  };
  const change = (operator: Operator, next: Role) => void run(() => api.patch(path`/operators/${operator.id}`, { role: next }));
  const remove = (operator: Operator) => void run(() => api.delete(path`/operators/${operator.id}`), { confirm: t('operators.confirmRemove', { email: operator.email }) });
  const fieldError = (name: string) =>
    fields[name] ? (
      <p id={`operator-${name}-error`} className="field-error">
        {fields[name]}
      </p>
    ) : null;
  const invalid = (name: string) => (fields[name] ? { 'aria-invalid': true, 'aria-describedby': `operator-${name}-error` } : {});

  return (
    <>
      <h1>{t('operators.title')}</h1>
      <ErrorNote error={list.error} />
      {status}
      <Table head={[t('operators.email'), t('operators.role'), t('operators.projects'), t('common.actions')]}>
            {(list.data?.operators ?? []).map((operator) => (
              <tr key={operator.id}>
                <th scope="row">{operator.email}</th>
                <td>
                  <select aria-label={t('operators.change', { email: operator.email })} value={operator.role} disabled={operator.id === me.id} onChange={(event) => change(operator, event.target.value as Role)}>
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {t(`role.${r}`)}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{operator.projects.map(projectId).join(', ')}</td>
                <td>
                  {operator.id !== me.id ? (
                    <button type="button" className="danger" aria-label={`${t('operators.remove')}: ${operator.email}`} onClick={() => remove(operator)}>
                      {t('operators.remove')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
      <form onSubmit={(event) => void invite(event)} className="settings-form" noValidate>
        <div className="field">
          <label htmlFor="operator-email">{t('operators.email')}</label>
          <input id="operator-email" type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} {...invalid('email')} />
          {fieldError('email')}
        </div>
        <div className="field">
          <label htmlFor="operator-role">{t('operators.role')}</label>
          <select id="operator-role" value={role} onChange={(event) => setRole(event.target.value as Role)} {...invalid('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
          {fieldError('role')}
        </div>
        <div className="field">
          <label htmlFor="operator-projects">{t('operators.projects')}</label>
          <input id="operator-projects" value={projects} onChange={(event) => setProjects(event.target.value)} aria-describedby={fields.projects ? 'operator-projects-error' : 'operator-projects-hint'} {...(fields.projects ? { 'aria-invalid': true } : {})} />
          <p id="operator-projects-hint" className="hint">
            {t('operators.projectsHint')}
          </p>
          {fieldError('projects')}
        </div>
        <button type="submit">{t('operators.invite')}</button>
      </form>
    </>
  );
}
