/** Counts a template body's distinct positional variables: "Hi {{1}}, your code is {{2}}" has 2. */
export function countVariables(body: string): number {
  const seen = new Set<string>();
  for (const match of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) seen.add(match[1]!);
  return seen.size;
}
