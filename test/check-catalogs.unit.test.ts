import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by `npm run lint`
import { CONVERTED, checkCatalogs, checkConverted, literalsIn } from '../scripts/check-catalogs.mjs';

const root = new URL('..', import.meta.url).pathname;
const locales = join(root, 'web/src/i18n/locales');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the real catalogs with one file changed by `edit`. */
function catalogsWith(file: string, edit: (catalog: Record<string, Record<string, string>>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalogs-'));
  temps.push(dir);
  cpSync(locales, dir, { recursive: true });
  const catalog = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  edit(catalog);
  writeFileSync(join(dir, file), JSON.stringify(catalog));
  return dir;
}

describe('the catalog check', () => {
  it('passes on the catalogs and converted files as they are', () => {
    expect(checkCatalogs(locales)).toEqual([]);
    expect(checkConverted(root)).toEqual([]);
  });

  it('fails on a key removed from one catalog, and on one English does not have', () => {
    const removed = catalogsWith('hi/shell.json', (c) => delete c.nav!.inbox);
    expect(checkCatalogs(removed)).toEqual(['hi/shell.json nav.inbox: missing (English has it)']);
    const added = catalogsWith('ar/settings.json', (c) => (c.plan!.extra = 'زائد'));
    expect(checkCatalogs(added)).toEqual(['ar/settings.json plan.extra: not in English']);
  });

  it('fails on a message that is not ICU, and on placeholders other than English’s', () => {
    const broken = catalogsWith('es/shell.json', (c) => (c.meter!.usedOf = '{used} de {limit'));
    expect(checkCatalogs(broken)).toEqual([expect.stringMatching(/^es\/shell.json meter.usedOf: not ICU/)]);
    const noOther = catalogsWith('id/shell.json', (c) => (c.nav!.overflow = '{max, plural, one {#}}'));
    expect(checkCatalogs(noOther)).toEqual([expect.stringMatching(/^id\/shell.json nav.overflow: not ICU/)]);
    const renamed = catalogsWith('pt-BR/settings.json', (c) => (c.plan!.operator = 'Use {comando}.'));
    expect(checkCatalogs(renamed)).toEqual([
      "pt-BR/settings.json plan.operator: placeholders {comando} differ from English's {command}",
    ]);
    // A plural's placeholders count, inside its branches too.
    const plural = catalogsWith(
      'ar/shell.json',
      (c) => (c.meter!.usedOf = '{limit, plural, other {{used} من #}}'),
    );
    expect(checkCatalogs(plural)).toEqual([]);
  });

  it('fails on a literal left in a converted file: JSX text, a text attribute, a conditional', () => {
    const shell = readFileSync(join(root, 'web/src/Shell.tsx'), 'utf8');
    expect(literalsIn('Shell.tsx', shell)).toEqual([]);
    const left = shell
      .replace("{t('signOut')}", 'Sign out')
      .replace("aria-label={t('closeMenu')}", 'aria-label="Close menu"')
      .replace("{t('skipToContent')}", "{path ? 'Skip' : t('skipToContent')}");
    expect(left).not.toBe(shell);
    expect(literalsIn('Shell.tsx', left).map((p: string) => p.replace(/:\d+:/, ':'))).toEqual([
      'Shell.tsx: "Skip" is outside the catalogs',
      'Shell.tsx: "Sign out" is outside the catalogs',
      'Shell.tsx: "Close menu" is outside the catalogs',
    ]);
  });

  it('leaves alone what is the same in every language: no letters, the product’s name, a command', () => {
    const source = `export const A = () => (
      <p title="Parley">
        · ☰ 99+ <code>parley plan set</code> {n === 'x' && <b />} {t('menu')}
      </p>
    );`;
    expect(literalsIn('A.tsx', source)).toEqual([]);
  });

  it('lists converted files that exist', () => {
    expect(CONVERTED.length).toBeGreaterThan(0);
    for (const path of CONVERTED) expect(existsSync(join(root, path)), path).toBe(true);
  });
});
