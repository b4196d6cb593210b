/**
 * CPU lists as taskset writes them (`0`, `2-3`, `0,2-5`): CONSOLE_WORKER_CPUS names the
 * console side's CPUs, and the client API's side takes the rest.
 */

const CPU_RANGE = /^(\d{1,4})(?:-(\d{1,4}))?$/;

/** The CPUs a list names, ascending and without repeats. */
export function parseCpuList(list: string): number[] {
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const range = CPU_RANGE.exec(part);
    const first = Number(range?.[1]);
    const last = range?.[2] === undefined ? first : Number(range[2]);
    if (!range || last < first) throw new Error(`not a CPU list: ${list}`);
    for (let cpu = first; cpu <= last; cpu += 1) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** The list of the machine's CPUs (0 to cpuCount - 1) that `list` leaves out; '' if none. */
export function otherCpus(list: string, cpuCount: number): string {
  const taken = new Set(parseCpuList(list));
  const rest: number[] = [];
  for (let cpu = 0; cpu < cpuCount; cpu += 1) if (!taken.has(cpu)) rest.push(cpu);
  return rest.join(',');
}
