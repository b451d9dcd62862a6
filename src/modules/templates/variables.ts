/** Counts a template body's distinct positional variables: "Hi {{1}}, your code is {{2}}" has 2. */
export function countVariables(body: string): number {
  const seen = new Set<string>();
  for (const match of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) seen.add(match[1]!);
  return seen.size;
}

/** A text's named variables in order of first use: "Hi {{first_name}}, {{order_id}}" has two. */
export function namedVariables(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g)) seen.add(match[1]!);
  return [...seen];
}
