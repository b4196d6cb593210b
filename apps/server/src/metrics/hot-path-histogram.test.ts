import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../../test/prometheus-text.ts';
import { HotPathCounter } from './hot-path-counter.ts';
import { HotPathHistogram } from './hot-path-histogram.ts';

const buckets = [0.001, 0.01, 0.1, 1];
const observations: [string, string, number][] = [
  ['/api/v1/verify', '2xx', 0.0004],
  ['/api/v1/verify', '2xx', 0.001],
  ['/api/v1/verify', '2xx', 0.05],
  ['/api/v1/verify', '4xx', 3],
  ['/api/applications/:id', '2xx', 0.2],
  ['a "quoted" \\ route\n', '5xx', 0.01],
];

describe('HotPathHistogram', () => {
  it("prints exactly what prom-client's own Histogram prints for the same observations", async () => {
    const ours = new Registry();
    const histogram = new HotPathHistogram(
      'latchkey_test_seconds',
      'Test.',
      ['route', 'status_class'],
      buckets,
    ).registerIn(ours);
    const reference = new Registry();
    const theirs = new Histogram({
      name: 'latchkey_test_seconds',
      help: 'Test.',
      labelNames: ['route', 'status_class'],
      buckets,
      registers: [reference],
    });
    for (const [route, statusClass, seconds] of observations) {
      histogram.cell([route, statusClass]).observe(seconds);
      theirs.observe({ route, status_class: statusClass }, seconds);
    }
    const text = await ours.metrics();
    // prom-client puts `le` first; the format does not order labels, so compare as samples.
    const sorted = (samples: ReturnType<typeof parsePrometheusText>) =>
      samples
        .map((sample) =>
          JSON.stringify([sample.name, Object.entries(sample.labels).sort(), sample.value]),
        )
        .sort();
    expect(sorted(parsePrometheusText(text))).toEqual(
      sorted(parsePrometheusText(await reference.metrics())),
    );
    expect(text).toContain(
      'latchkey_test_seconds_bucket{route="/api/v1/verify",status_class="2xx",le="0.001"} 2',
    );
    expect(text).toContain('route="a \\"quoted\\" \\\\ route\\n"');
  });

  it('hands out one cell per label combination, and refuses a wrong number of labels', () => {
    const histogram = new HotPathHistogram('h', 'H.', ['a', 'b'], buckets);
    expect(histogram.cell(['x', 'y'])).toBe(histogram.cell(['x', 'y']));
    expect(histogram.cell(['x', 'y'])).not.toBe(histogram.cell(['x', 'z']));
    expect(() => histogram.cell(['x'])).toThrow(/expected labels a, b/);
    expect(() => new HotPathHistogram('h', 'H.', [], [1, 1])).toThrow(/buckets must increase/);
  });
});

describe('HotPathCounter', () => {
  it('hands each scrape the counts since the last one, and shows cells at 0 from the start', async () => {
    const registry = new Registry();
    const counter = new HotPathCounter({
      name: 'latchkey_test_total',
      help: 'Test.',
      labelNames: ['code'],
      registry,
    });
    const ok = counter.cell(['OK']);
    counter.cell(['WRONG_PASSWORD']);
    ok.inc();
    ok.inc();
    expect(await registry.metrics()).toContain('latchkey_test_total{code="OK"} 2\n');
    expect(await registry.metrics()).toContain('latchkey_test_total{code="WRONG_PASSWORD"} 0\n');
    ok.inc();
    const text = await registry.metrics();
    expect(text).toContain('latchkey_test_total{code="OK"} 3\n');
    expect(registry.getSingleMetric('latchkey_test_total')).toBeInstanceOf(Counter);
  });
});
