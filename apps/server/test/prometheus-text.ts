export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (\\S+)(?: -?\\d+)?$`,
);
const LABEL_GLOBAL = new RegExp(LABEL, 'g');
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * A strict reader of the Prometheus text format 0.0.4, enough to refuse what a scraper
 * would: every line a comment, a HELP or TYPE line, or a sample of a declared family with
 * well-formed labels and a number; histogram buckets cumulative, ending at +Inf = _count.
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline');
  const types = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) {
        if (types.has(type[1]!)) throw new Error(`second TYPE for ${type[1]}`);
        if (!TYPES.has(type[2]!)) throw new Error(`unknown type: ${line}`);
        types.set(type[1]!, type[2]!);
      } else if (!/^# HELP \S+ .*$/.test(line) && /^# (HELP|TYPE)\b/.test(line)) {
        throw new Error(`malformed comment: ${line}`);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`malformed sample: ${line}`);
    const name = match[1]!;
    const family = [...types.keys()].find(
      (declared) =>
        name === declared ||
        (types.get(declared) === 'histogram' &&
          ['_bucket', '_sum', '_count'].some((suffix) => name === declared + suffix)),
    );
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, labelName, labelValue] of (match[2] ?? '').matchAll(LABEL_GLOBAL)) {
      if (labelName! in labels) throw new Error(`repeated label: ${line}`);
      labels[labelName!] = labelValue!.replace(/\\(.)/g, (_, escaped: string) =>
        escaped === 'n' ? '\n' : escaped,
      );
    }
    // As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case (prom-client writes "Nan").
    const rawValue = match.at(-1)!;
    const special = /^([+-]?)(inf|infinity|nan)$/i.exec(rawValue);
    const value = special
      ? special[2]!.toLowerCase() === 'nan'
        ? NaN
        : special[1] === '-'
          ? -Infinity
          : Infinity
      : Number(rawValue);
    if (Number.isNaN(value) && !special) throw new Error(`not a number: ${line}`);
    samples.push({ name, labels, value });
  }
  checkHistograms(samples, types);
  return samples;
}

function checkHistograms(samples: PrometheusSample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, PrometheusSample[]>();
    for (const sample of samples.filter((each) => each.name === `${family}_bucket`)) {
      const { le, ...rest } = sample.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), sample]);
    }
    for (const [key, buckets] of series) {
      const bounds = buckets.map((bucket) => Number(bucket.labels.le!.replace('+Inf', 'Infinity')));
      for (let index = 1; index < buckets.length; index += 1) {
        if (
          bounds[index]! <= bounds[index - 1]! ||
          buckets[index]!.value < buckets[index - 1]!.value
        ) {
          throw new Error(`${family}${key}: buckets not cumulative`);
        }
      }
      const count = samples.find(
        (sample) => sample.name === `${family}_count` && JSON.stringify(sample.labels) === key,
      );
      if (bounds.at(-1) !== Infinity || count?.value !== buckets.at(-1)!.value) {
        throw new Error(`${family}${key}: +Inf bucket missing or not equal to _count`);
      }
    }
  }
}

/** The value of the one sample with this name and (at least) these labels; undefined if none. */
export function sampleValue(
  samples: PrometheusSample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([labelName, value]) => sample.labels[labelName] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`);
  return found[0]?.value;
}
