import { useConsole } from './context';
import { formatTime } from './format';
import { routeHash } from './route';
import { Table } from './Table';

export interface AuditRecord {
  seq: number;
  at: string;
  event: string;
  outcome: string;
  reason?: string | null;
  actor: string;
  userId?: string | null;
  target?: string | null;
  ip?: string | null;
  browser?: string | null;
  os?: string | null;
  details?: Record<string, unknown>;
}

/** The trail's records as a table, each linking to its user's page. */
export function TrailTable({ project, events, caption }: { project: string; events: AuditRecord[]; caption: string }) {
  const { t, language } = useConsole();
  return (
    <Table caption={caption} head={[t('trail.at'), t('trail.event'), t('trail.outcome'), t('trail.actor'), t('trail.user'), t('trail.reason')]}>
          {events.map((record) => (
            <tr key={record.seq}>
              <td>{formatTime(record.at, language)}</td>
              <td>{record.event}</td>
              <td>{record.outcome}</td>
              <td>{record.actor}</td>
              <td>{record.userId ? <a href={routeHash({ page: 'user', project, user: record.userId, query: {} })}>{record.userId}</a> : ''}</td>
              <td>{record.reason ?? ''}</td>
            </tr>
          ))}
        </Table>
  );
}
