import type { ActivityChart, ActivityChartSeriesKey } from '@latchkey/contracts';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  activityChartSeriesColors,
  activityChartSeriesKeys,
  activityChartSeriesLabels,
  formatBucketTick,
} from './activity-chart-format.ts';

const PLOT_HEIGHT_PX = 240;
const NARROW_PLOT_HEIGHT_PX = 200;
const NARROW_WIDTH_PX = 480;

function plotHeight(width: number): number {
  return width < NARROW_WIDTH_PX ? NARROW_PLOT_HEIGHT_PX : PLOT_HEIGHT_PX;
}

/**
 * The chart itself, with uPlot (about 20 KB gzipped, canvas): this module is loaded only when
 * a chart is shown (React.lazy), so neither uPlot nor its stylesheet is in any page's first
 * load. Colours are read from the theme's CSS variables each time the plot is built; the
 * parent rebuilds it when the theme changes (`theme` is part of the effect's inputs).
 */
export default function ActivityChartPlot({
  chart,
  visibleSeries,
  theme,
}: {
  chart: ActivityChart;
  visibleSeries: ReadonlySet<ActivityChartSeriesKey>;
  theme: string;
}) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const style = getComputedStyle(container);
    const cssColor = (name: string) => style.getPropertyValue(name).trim() || 'currentColor';
    const axisColor = cssColor('--chart-axis');
    const gridColor = cssColor('--chart-grid');
    const axis: uPlot.Axis = {
      stroke: axisColor,
      grid: { stroke: gridColor, width: 1 },
      ticks: { stroke: gridColor, width: 1 },
      font: '12px system-ui, sans-serif',
    };
    const width = Math.max(container.clientWidth, 200);
    const data: uPlot.AlignedData = [
      chart.points.map((point) => Date.parse(point.start) / 1000),
      ...activityChartSeriesKeys.map((key) => chart.points.map((point) => point[key])),
    ];
    const plot = new uPlot(
      {
        width,
        height: plotHeight(width),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          // Counts: from zero, and a few steps high even when everything is small.
          y: { range: (_plot, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
        },
        axes: [
          {
            ...axis,
            space: 56,
            values: (_plot, splits) =>
              splits.map((split) => formatBucketTick(new Date(split * 1000), chart.bucket)),
          },
          {
            ...axis,
            size: 48,
            values: (_plot, splits) =>
              splits.map((split) => (Number.isInteger(split) ? String(split) : '')),
          },
        ],
        series: [
          {},
          ...activityChartSeriesKeys.map((key): uPlot.Series => ({
            label: activityChartSeriesLabels[key],
            show: visibleSeries.has(key),
            stroke: cssColor(activityChartSeriesColors[key]),
            width: 2,
            points: { show: true, size: 5 },
          })),
        ],
      },
      data,
      container,
    );
    // Follows its card's width (a phone held either way, a resized window).
    const observer = new ResizeObserver(() => {
      const nextWidth = Math.max(container.clientWidth, 200);
      if (nextWidth !== plot.width)
        plot.setSize({ width: nextWidth, height: plotHeight(nextWidth) });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [chart, visibleSeries, theme]);

  return <div ref={containerRef} data-testid="activity-chart-plot" className="w-full min-w-0" />;
}
