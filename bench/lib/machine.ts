import os from 'node:os';

export interface MachineInfo {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly platform: string;
  readonly totalMemoryMiB: number;
  /** 1-minute load average when the run started (other work on a shared machine skews times). */
  readonly loadAverage: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cores: os.availableParallelism?.() ?? cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    totalMemoryMiB: Math.round(os.totalmem() / 1024 / 1024),
    loadAverage: os.loadavg()[0],
  };
}
