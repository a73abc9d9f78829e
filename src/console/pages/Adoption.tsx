// Adoption: the audit trail's figures as charts (sign-ups and log-ins per day by method, the passkey
// log-in share over time, the passkey funnel by system and browser), each with its data as a table
// beside it; the period is picked here, the project in the header.
import { useEffect, useMemo, useState } from 'react';
import { path } from '../api';
import { fillDays, funnelRows, perMethod, seriesRows, shareSeries, type Series, type Stats } from '../adoption';
import { Chart } from '../Chart';
import { ErrorNote, useConsole, useLoad } from '../context';
import { formatShare } from '../format';
import { Table } from '../Table';

export const PERIODS = [7, 30, 90] as const;

function useScheme(): string {
  const [scheme, setScheme] = useState(() => `${document.documentElement.dataset.theme ?? ''}`);
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const update = () => setScheme(`${document.documentElement.dataset.theme ?? ''}/${media?.matches ? 'dark' : 'light'}`);
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    media?.addEventListener?.('change', update);
    return () => {
      observer.disconnect();
      media?.removeEventListener?.('change', update);
    };
  }, []);
  return scheme;
}

function SeriesFigure({ id, title, series, share = false }: { id: string; title: string; series: Series; share?: boolean }) {
  const { t, language } = useConsole();
  const scheme = useScheme();
  const rows = seriesRows(series);
  return (
    <section className="figure" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="figure-body">
        <Chart x={series.x} lines={series.lines} share={share} scheme={scheme} />
        <Table region={`${title}: ${t('adoption.table')}`} head={[t('adoption.date'), ...series.lines.map((line) => (share ? t('adoption.shareColumn') : line.name))]}>
              {rows.map((row) => (
                <tr key={row.date}>
                  <th scope="row">{row.date}</th>
                  {row.values.map((value, i) => (
                    <td key={i}>{share ? formatShare(value, language) : value}</td>
                  ))}
                </tr>
              ))}
            </Table>
      </div>
    </section>
  );
}

export function Adoption({ project }: { project: string }) {
  const { api, t, language } = useConsole();
  const [days, setDays] = useState<number>(30);
  const stats = useLoad(() => api.get<Stats>(path`/projects/${project}/stats`, { days }), [api, project, days]);
  const scheme = useScheme();
  const charts = useMemo(() => {
    const daily = stats.data ? fillDays(stats.data.daily ?? [], stats.data.from, stats.data.days) : [];
    const funnel = funnelRows(stats.data?.funnel ?? []);
    return {
      signUps: perMethod(daily, 'signUps'),
      logIns: perMethod(daily, 'logIns'),
      share: shareSeries(daily),
      funnel,
      funnelLines: [
        { name: t('adoption.offered'), values: funnel.map((row) => row.offered) },
        { name: t('adoption.createdColumn'), values: funnel.map((row) => row.created) },
      ],
      funnelX: funnel.map((_row, i) => i),
      funnelLabels: funnel.map((row) => row.label),
    };
  }, [stats.data, t]);

  return (
    <>
      <h1>{t('adoption.title')}</h1>
      <label>
        {t('adoption.period')}{' '}
        <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              {t('adoption.days', { days: period })}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={stats.error} />
      {stats.data ? (
        <>
          <p>
            {t('adoption.summary', {
              active: stats.data.adoption.activeUsers,
              withPasskey: stats.data.adoption.activeUsersWithPasskey,
              share: formatShare(stats.data.adoption.passkeyUserShare, language),
              loginShare: formatShare(stats.data.adoption.passkeyLoginShare, language),
            })}
          </p>
          <SeriesFigure id="chart-signups" title={t('adoption.signUps')} series={charts.signUps} />
          <SeriesFigure id="chart-logins" title={t('adoption.logIns')} series={charts.logIns} />
          <SeriesFigure id="chart-share" title={t('adoption.share')} series={charts.share} share />
          <section className="figure" aria-labelledby="chart-funnel">
            <h2 id="chart-funnel">{t('adoption.funnel')}</h2>
            <div className="figure-body">
              {charts.funnel.length ? <Chart x={charts.funnelX} lines={charts.funnelLines} categories={charts.funnelLabels} scheme={scheme} /> : null}
              <Table
                region={`${t('adoption.funnel')}: ${t('adoption.table')}`}
                head={[`${t('user.os')} · ${t('user.browser')}`, t('adoption.offered'), t('adoption.createdColumn'), t('adoption.skipped'), t('adoption.failed')]}
              >
                    {charts.funnel.map((row) => (
                      <tr key={row.label}>
                        <th scope="row">{row.label}</th>
                        <td>{row.offered}</td>
                        <td>{row.created}</td>
                        <td>{row.skipped}</td>
                        <td>{row.failed}</td>
                      </tr>
                    ))}
                  </Table>
            </div>
          </section>
        </>
      ) : stats.loading ? (
        <p role="status">{t('common.loading')}</p>
      ) : null}
    </>
  );
}
