// What the figures were measured on.
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, release, totalmem, type as osType } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  chromium: string;
  playwright: string;
  date: string;
  gitCommit: string;
  /** uncommitted changes in src/ or demo/ when the benchmark ran (others edit them concurrently) */
  workingTreeChanges: string[];
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function machineInfo(root: string, chromium: string, playwright: string): MachineInfo {
  const [cpu] = cpus();
  return {
    cpuModel: cpu?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium,
    playwright,
    date: new Date().toISOString(),
    gitCommit: git(root, ['rev-parse', 'HEAD']),
    workingTreeChanges: git(root, ['status', '--porcelain', '--', 'src', 'demo', 'server', 'bench/lib', 'bench/apiServer.ts', 'vite.config.ts', 'package.json'])
      .split('\n')
      .filter(Boolean),
  };
}
