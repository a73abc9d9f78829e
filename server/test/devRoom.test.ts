// The development-only room (server/dev/: the provider stand-ins, the outbox pages, /_dev) is apart from
// what production runs: no production file of the server imports from server/dev/, statically, by a
// re-export or by a dynamic import, except app.ts, which loads server/dev/index.ts by a dynamic import in
// its development branch (production.test.ts proves that production answers 404 under /_dev). The test
// files are no production code and may import the stand-ins' helpers.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEV = join(SERVER, 'dev');
/** Not production code: the room itself, the tests, and what is built or installed. */
const OUTSIDE_PRODUCTION = new Set(['dev', 'test', 'node_modules', 'dist']);
/** The one place that may reach into the room, and what it may load from it (by import()). */
const MOUNT = { file: 'app.ts', specifier: './dev/index.ts' };

function productionFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return dir === SERVER && OUTSIDE_PRODUCTION.has(entry.name) ? [] : productionFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports (static), and those it loads by import() (dynamic). */
function specifiers(file: string): { static: string[]; dynamic: string[] } {
  const found = { static: [] as string[], dynamic: [] as string[] };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.static.push(node.moduleSpecifier.text);
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) found.static.push(node.moduleReference.expression.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // an import() of a computed name could reach anywhere: counted as a way in
      found.dynamic.push(argument && ts.isStringLiteralLike(argument) ? argument.text : COMPUTED);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return found;
}

const COMPUTED = '<a computed name>';
const intoTheRoom = (file: string, specifier: string) => specifier === COMPUTED || (specifier.startsWith('.') && (resolve(dirname(file), specifier) + sep).startsWith(DEV + sep));

describe('the development-only room', () => {
  it('is reached from production code only by the dynamic import in app.ts', () => {
    const files = productionFiles();
    // the scan sees the server's code (a broken walk would prove nothing)
    expect(files.map((f) => relative(SERVER, f))).toEqual(expect.arrayContaining(['app.ts', 'main.ts', join('http', 'configRoutes.ts'), join('social', 'SocialProviders.ts')]));
    const reaching = files.flatMap((file) => {
      const found = specifiers(file);
      return [...found.static.map((s) => ['static', s]), ...found.dynamic.map((s) => ['dynamic', s])]
        .filter(([, s]) => intoTheRoom(file, s!))
        .map(([kind, s]) => `${relative(SERVER, file)} -> ${kind} ${s}`);
    });
    // one way in, and no static import: a production server never loads the module
    expect(reaching).toEqual([`${MOUNT.file} -> dynamic ${MOUNT.specifier}`]);
  });

  it('holds the stand-ins, the outbox routes and the console development sign-in', () => {
    expect(readdirSync(DEV).sort()).toEqual(['consoleSignIn.ts', 'index.ts', 'outboxRoutes.ts', 'simulator.ts', 'simulatorPages.ts']);
  });
});
