// Stops (bars) and earnings (line) per week. Loaded on demand (React.lazy) so uPlot and its
// stylesheet are only fetched when a driver opens the summaries, not on every app start.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatShortDate } from '@/lib/format';
import type { WeekPoint } from '@/core/pay-summaries/summaries';
import styles from './history-page.module.css';

const HEIGHT_PX = 240;

function cssColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

function options(points: readonly WeekPoint[], width: number): uPlot.Options {
  const muted = cssColor('--color-text-muted', '#a7afbd');
  const grid = { stroke: cssColor('--color-border', '#2e3440'), width: 1 };
  const weekLabel = (index: number) => {
    const point = Number.isInteger(index) ? points[index] : undefined;
    return point ? formatShortDate(point.weekStart).slice(0, 5) : '';
  };
  // The legend reads the latest week until a bar is touched, and again once the finger leaves:
  // never "Stops: --" waiting for a tap.
  const latest = (u: uPlot) => {
    if ((u.cursor.idx === null || u.cursor.idx === undefined) && points.length > 0) u.setLegend({ idx: points.length - 1 });
  };
  return {
    width,
    height: HEIGHT_PX,
    hooks: { ready: [latest], setCursor: [latest] },
    cursor: { drag: { x: false, y: false } },
    // Half a week of room at each end: the first and last bars draw whole, inside the plot.
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, stops: { range: (_u, _min, max) => [0, Math.max(10, max)] }, money: { range: (_u, _min, max) => [0, Math.max(10, max)] } },
    axes: [
      { stroke: muted, grid: { show: false }, values: (_u, splits) => splits.map(weekLabel) },
      { scale: 'stops', stroke: muted, grid, size: 48 },
      { scale: 'money', side: 1, stroke: muted, grid: { show: false }, size: 64, values: (_u, splits) => splits.map((v) => pounds.format(v)) },
    ],
    series: [
      { label: 'Week of', value: (_u, index) => (index === null ? '' : weekLabel(index)) },
      {
        label: 'Stops',
        scale: 'stops',
        stroke: cssColor('--color-accent', '#8ab4ff'),
        fill: cssColor('--color-accent-soft', 'rgba(138,180,255,0.14)'),
        paths: uPlot.paths.bars!({ size: [0.7, 48] }),
        points: { show: false },
      },
      {
        label: 'Earnings',
        scale: 'money',
        stroke: cssColor('--color-success', '#86efac'),
        width: 2,
        points: { show: points.length <= 26 },
        value: (_u, value) => (value === null ? '' : pounds.format(value)),
      },
    ],
  };
}

/** The chart itself: one uPlot instance, resized with its container. */
export default function WeeklyChart({ points }: { points: readonly WeekPoint[] }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      points.map((_, index) => index),
      points.map((point) => point.stops),
      points.map((point) => point.earnings / 100),
    ];
    const plot = new uPlot(options(points, element.clientWidth || 320), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: element.clientWidth || 320, height: HEIGHT_PX }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [points]);

  return <div ref={container} className={styles.chart} />;
}
