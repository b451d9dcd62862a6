import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** What the web app must pass: WCAG 2 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const BLOCKING = new Set(['serious', 'critical']);

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/**
 * axe-core's serious and critical violations on the page as it stands, one line per element: where (`label`), the rule, the element's selector and axe's
 * summary of what to fix, so a failure says what and where without a rerun.
 */
export async function axeProblems(page: Page, label: string): Promise<string[]> {
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = globalThis as unknown as { axe: { run: (options: unknown) => Promise<unknown> } };
    const result = (await axe.run({
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    })) as { violations: unknown[] };
    return result.violations;
  }, TAGS);
  return (violations as AxeViolation[])
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${label}: ${v.id} (${v.impact}: ${v.help}) at ${n.target.map(String).join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`,
      ),
    );
}
