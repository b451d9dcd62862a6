// The web app's catalogs and the strings left outside them (issue 34), run by `npm run lint`:
// - every language's catalog has exactly English's keys, per namespace (web/src/i18n/locales/<lang>/<ns>.json);
// - every message is valid ICU MessageFormat and names the same placeholders as English's;
// - the converted files (CONVERTED) hold no user-visible literal: JSX text, or a string given to
//   aria-label, placeholder, title or alt. Each session that converts more of the app adds to CONVERTED,
//   until it is web/src.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import ts from 'typescript';

export const CONVERTED = [
  'web/src/App.tsx',
  'web/src/Shell.tsx',
  'web/src/Availability.tsx',
  'web/src/LanguagePicker.tsx',
  'web/src/confirm.tsx',
  'web/src/i18n',
  'web/src/list.tsx',
  'web/src/main.tsx',
  'web/src/pages/AuthForm.tsx',
  'web/src/pages/AuthLayout.tsx',
  'web/src/pages/EmailField.tsx',
  'web/src/pages/ForgotPassword.tsx',
  'web/src/pages/Invite.tsx',
  'web/src/pages/Login.tsx',
  'web/src/pages/NewPasswordField.tsx',
  'web/src/pages/ResetPassword.tsx',
  'web/src/pages/Setup.tsx',
  'web/src/pages/inbox/NotificationsBell.tsx',
  'web/src/pages/Settings.tsx',
  'web/src/pages/settings/Plan.tsx',
  'web/src/ui',
];

/** Words that stay as they are in every language: the product's name. */
const UNTRANSLATED = new Set(['Parley']);
const TEXT_ATTRIBUTES = new Set(['aria-label', 'placeholder', 'title', 'alt']);
const LETTER = /\p{L}/u;

const flatten = (value, prefix = '') =>
  typeof value === 'string'
    ? { [prefix]: value }
    : Object.assign({}, ...Object.entries(value).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k)));

/** The placeholder names a parsed ICU message uses, however deep (plural and select branches, tags). */
function placeholders(ast, into = new Set()) {
  for (const el of ast) {
    if ([1, 2, 3, 4, 5, 6].includes(el.type)) into.add(el.value);
    if (el.options) for (const o of Object.values(el.options)) placeholders(o.value, into);
    if (el.children) placeholders(el.children, into);
  }
  return into;
}

function parse(message, language) {
  try {
    return { names: placeholders(new IntlMessageFormat(message, language).getAst()) };
  } catch (err) {
    return { error: err.message };
  }
}

/** Problems with the catalogs under `dir`, compared with English's. */
export function checkCatalogs(dir) {
  const problems = [];
  const languages = readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory());
  const namespaces = readdirSync(join(dir, 'en')).filter((f) => f.endsWith('.json'));
  for (const ns of namespaces) {
    const english = flatten(JSON.parse(readFileSync(join(dir, 'en', ns), 'utf8')));
    const englishNames = Object.fromEntries(
      Object.entries(english).map(([key, message]) => {
        const parsed = parse(message, 'en');
        if (parsed.error) problems.push(`en/${ns} ${key}: not ICU MessageFormat (${parsed.error})`);
        return [key, [...(parsed.names ?? [])].sort().join(',')];
      }),
    );
    for (const language of languages.filter((l) => l !== 'en')) {
      const file = join(dir, language, ns);
      let catalog;
      try {
        catalog = flatten(JSON.parse(readFileSync(file, 'utf8')));
      } catch (err) {
        problems.push(`${language}/${ns}: cannot be read (${err.message})`);
        continue;
      }
      for (const key of Object.keys(english))
        if (!(key in catalog)) problems.push(`${language}/${ns} ${key}: missing (English has it)`);
      for (const [key, message] of Object.entries(catalog)) {
        if (!(key in english)) {
          problems.push(`${language}/${ns} ${key}: not in English`);
          continue;
        }
        const parsed = parse(message, language);
        if (parsed.error) problems.push(`${language}/${ns} ${key}: not ICU MessageFormat (${parsed.error})`);
        else if ([...parsed.names].sort().join(',') !== englishNames[key])
          problems.push(
            `${language}/${ns} ${key}: placeholders {${[...parsed.names].join(', ')}} differ from English's {${englishNames[key]}}`,
          );
      }
    }
  }
  return problems;
}

const visible = (text) => LETTER.test(text) && !UNTRANSLATED.has(text.trim());

/** The string literals an expression can evaluate to (both sides of `a ? 'x' : 'y'`, `a || 'x'`), not a call's arguments. */
function literalsOf(node) {
  if (!node) return [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
  if (ts.isParenthesizedExpression(node) || ts.isJsxExpression(node)) return literalsOf(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalsOf(node.whenTrue), ...literalsOf(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    // `cond && 'x'` shows only its right side; `a ?? 'x'`, `a || 'x'` and `'a' + b` show both.
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalsOf(node.right);
    if (
      [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken].includes(op)
    )
      return [...literalsOf(node.left), ...literalsOf(node.right)];
  }
  return [];
}

/** Text inside <code> or <kbd> is a command or a key, the same in every language. */
const CODE_ELEMENTS = new Set(['code', 'kbd']);
const inCode = (node) =>
  ts.isJsxElement(node.parent) && CODE_ELEMENTS.has(node.parent.openingElement.tagName.getText());

/** User-visible literals in one TSX source: `file:line: text`. */
export function literalsIn(file, source) {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found = [];
  const report = (node, text) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push(`${file}:${line + 1}: "${text.trim()}" is outside the catalogs`);
  };
  const visit = (node) => {
    if (ts.isJsxText(node) && visible(node.text) && !inCode(node)) report(node, node.text);
    else if (
      ts.isJsxExpression(node) &&
      node.parent &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      for (const text of literalsOf(node.expression)) if (visible(text)) report(node, text);
    } else if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(sf))) {
      for (const text of literalsOf(node.initializer)) if (visible(text)) report(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const tsxUnder = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).flatMap((f) => tsxUnder(join(path, f)))
    : path.endsWith('.tsx') && !path.includes('.test.')
      ? [path]
      : [];

/** Literals left in the converted files, under `root` (the repository). */
export function checkConverted(root, converted = CONVERTED) {
  return converted
    .flatMap((p) => tsxUnder(join(root, p)))
    .flatMap((f) => literalsIn(relative(root, f), readFileSync(f, 'utf8')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = [...checkCatalogs(join(root, 'web/src/i18n/locales')), ...checkConverted(root)];
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`check-catalogs: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('check-catalogs: every catalog matches English; the converted files hold no literal');
}
