// A chart drawn by uPlot (a small, maintained canvas charting library that bundles with the app, so
// nothing is fetched), with its data as a table beside it: the canvas is hidden from screen readers,
// the table is what they read and what a person copies. Colours come from the page's CSS custom
// properties, so the chart follows the light or dark scheme.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export const PALETTE = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];

export interface ChartProps {
  /** x values: seconds (time) or category indexes */
  x: number[];
  lines: { name: string; values: number[] }[];
  /** category labels for x (bars), else x is time */
  categories?: string[];
  /** y as a share (0…1), shown as percent */
  share?: boolean;
  /** a key that changes when the colour scheme does (the chart is drawn again) */
  scheme: string;
}

/** A colour property of the page as the canvas takes it (its light-dark() resolved for the scheme in force). */
function cssVar(name: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour || '#3366cc';
}

export function Chart({ x, lines, categories, share = false, scheme }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const text = cssVar('--text');
    const grid = cssVar('--line');
    const width = () => Math.max(240, Math.floor(element.clientWidth));
    const bars = categories ? uPlot.paths.bars!({ size: [0.8 / Math.max(1, lines.length), 60], align: 0 }) : undefined;
    const axis: uPlot.Axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        legend: { show: true },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: !categories, ...(categories ? { range: [-0.5, categories.length - 0.5] as [number, number] } : {}) }, y: share ? { range: [0, 1] } : { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { ...axis, ...(categories ? { values: (_u: uPlot, splits: number[]) => splits.map((split) => (Number.isInteger(split) ? (categories[split] ?? '') : '')) } : {}) },
          { ...axis, ...(share ? { values: (_u: uPlot, splits: number[]) => splits.map((split) => `${Math.round(split * 100)} %`) } : {}) },
        ],
        series: [
          {},
          ...lines.map((line, i) => {
            const colour = cssVar(PALETTE[i % PALETTE.length]!);
            return {
              label: line.name,
              stroke: colour,
              width: 2,
              ...(bars ? { fill: colour, paths: bars, points: { show: false } } : { points: { show: true, size: 5 } }),
            };
          }),
        ],
      },
      [x, ...lines.map((line) => line.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, lines, categories, share, scheme]);
  return <div className="chart" ref={host} aria-hidden="true" />;
}
