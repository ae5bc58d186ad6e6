// Figures a test measures (sizes, times), reported, never asserted (machines are shared and
// noisy). Written to the extension host's console (VS Code desktop runners show it) and kept
// for the code-server runner, which prints them after the results.
const lines: string[] = [];

export function report(line: string): void {
  lines.push(line);
  console.log(line);
}

export function reported(): string[] {
  return [...lines];
}
