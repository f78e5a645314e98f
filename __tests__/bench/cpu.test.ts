import { spawnSync } from 'node:child_process';
import { cpuMsSoFar, parseStat } from '../../bench/lib/cpu';

test('parseStat reads ppid and the four time fields after a command name holding spaces and parentheses', () => {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  const line = '4242 (node (bench) x) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 30 700 45 20 0 11 0 123 456';
  expect(parseStat(line)).toEqual({ ppid: 17, own: 280, reaped: 745 });
  expect(parseStat('garbage')).toBeNull();
});

test('cpuMsSoFar counts a child process waited for', () => {
  const before = cpuMsSoFar();
  // A fixed amount of work (not a time): about 0.2 s of CPU whatever the machine's load.
  spawnSync(process.execPath, ['-e', 'let x = 0; for (let i = 0; i < 2e8; i++) x += i % 7; if (x < 0) console.log(x);']);
  const spent = cpuMsSoFar() - before;
  if (process.platform === 'linux') expect(spent).toBeGreaterThan(50);
  else expect(spent).toBeGreaterThanOrEqual(0);
});
