// Benchmarks are command-line programs whose output is their result: they print figures and
// assert nothing (see docs/development.md, "Tests and benchmarks").

export function report(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}
