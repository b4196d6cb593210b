// Types of process-cpu.mjs for the TypeScript bench servers.
export declare const canReadCpu: boolean;
export declare function execFileSyncSafe(command: string, args: string[]): string;
export declare function processTimesUs(
  pid: string | number,
  statPath?: string,
): { user: number; kernel: number };
export declare function processCpuUs(pid: string | number, statPath?: string): number;
export declare function processAndReapedCpuUs(pid: string | number): number;
export declare function postgresPids(): string[];
export declare function postgresCpuUs(): number;
export declare function pinPostgres(cores: string): void;
