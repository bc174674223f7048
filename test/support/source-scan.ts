/**
 * Static checks of the repository's own TypeScript, parsed with the TypeScript compiler API (so
 * comments, strings and type positions never count): which modules a file imports, and where it
 * reaches for ambient time, randomness or timers instead of the ports. Used by
 * test/boundaries.test.ts; pure functions of a file's text, so each rule is unit-tested on
 * fixture strings.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One place a file reaches for ambient time, randomness or timers. */
export interface AmbientUse {
  /** 1-based line. */
  line: number;
  /** What was used, e.g. `Date.now`, `new Date()`, `setTimeout`, `import randomUUID from node:crypto`. */
  what: string;
}

/** Property reads that give the time or a random value (after `globalThis.` is dropped). */
const AMBIENT_PROPERTIES = new Set([
  'Date.now',
  'Math.random',
  'performance.now',
  'performance.timeOrigin',
  'process.hrtime',
  'process.uptime',
  'crypto.randomUUID',
  'crypto.randomBytes',
  'crypto.randomInt',
  'crypto.getRandomValues',
  'crypto.randomFillSync',
  'crypto.randomFill',
]);

/** Global functions that arm a timer. */
const TIMER_NAMES = new Set(['setTimeout', 'setInterval', 'setImmediate']);

/** Names of node:crypto that draw randomness when imported by name. */
const RANDOM_EXPORTS = new Set([
  'randomUUID',
  'randomBytes',
  'randomInt',
  'getRandomValues',
  'randomFillSync',
  'randomFill',
]);

/** Modules whose import arms timers or reads the clock by itself. */
const TIMER_MODULES = new Set(['timers', 'node:timers', 'timers/promises', 'node:timers/promises']);

/** Objects through which a global can be reached (`globalThis.setTimeout`). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);

function parse(source: string, fileName: string): ts.SourceFile {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function stringArgument(node: ts.CallExpression): string | undefined {
  const [first] = node.arguments;
  return first !== undefined && ts.isStringLiteralLike(first) ? first.text : undefined;
}

/**
 * Every module specifier `source` names: static imports and exports (type-only included), side
 * effect imports, `import x = require()`, dynamic `import()`, `require()` and `import('x').T`.
 */
export function moduleSpecifiers(source: string, fileName = 'file.ts'): string[] {
  const found: string[] = [];
  walk(parse(source, fileName), (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteralLike(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteralLike(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      const specifier = stringArgument(node);
      if (specifier !== undefined) found.push(specifier);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteralLike(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
  });
  return found;
}

/** `a.b.c` of a property access, with a leading `globalThis.` (or `global.`, ...) dropped. */
function accessPath(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (!ts.isPropertyAccessExpression(node)) return undefined;
  const left = accessPath(node.expression);
  if (left === undefined) return undefined;
  return GLOBAL_OBJECTS.has(left) ? node.name.text : `${left}.${node.name.text}`;
}

/** True inside a type (`ReturnType<typeof setTimeout>`), which runs nothing. */
function inTypePosition(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if (ts.isTypeNode(at) && !ts.isExpressionWithTypeArguments(at)) return true;
  }
  return false;
}

/**
 * True when `node` (an identifier named like a timer) is a reference to the global: not a
 * property name (`socket.setTimeout`, `{ setTimeout: fn }`, a method), not a declaration of its
 * own name, not in a type.
 */
function isGlobalTimerReference(node: ts.Identifier): boolean {
  const { parent } = node;
  // `import { setTimeout as sleep } from 'node:timers'` is judged as an import, once.
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
    return ts.isIdentifier(parent.expression) && GLOBAL_OBJECTS.has(parent.expression.text);
  }
  const declares =
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isBindingElement(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent)) &&
    (parent as { name?: ts.Node }).name === node;
  return !declares && !inTypePosition(node);
}

/** The ambient use at `node`, if it is one. */
function ambientUseAt(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) {
    const path = accessPath(node);
    return path !== undefined && AMBIENT_PROPERTIES.has(path) && !inTypePosition(node) ? path : undefined;
  }
  if (
    ts.isNewExpression(node) &&
    accessPath(node.expression) === 'Date' &&
    (node.arguments === undefined || node.arguments.length === 0)
  )
    return 'new Date()';
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Date') return 'Date()';
  if (ts.isIdentifier(node) && TIMER_NAMES.has(node.text) && isGlobalTimerReference(node)) return node.text;
  if (ts.isImportDeclaration(node) && ts.isStringLiteralLike(node.moduleSpecifier)) return ambientImport(node);
  return undefined;
}

/** `import { randomUUID } from 'node:crypto'` and any import of node:timers. */
function ambientImport(node: ts.ImportDeclaration): string | undefined {
  const from = (node.moduleSpecifier as ts.StringLiteral).text;
  if (TIMER_MODULES.has(from)) return `import from ${from}`;
  if (from !== 'crypto' && from !== 'node:crypto') return undefined;
  const bindings = node.importClause?.namedBindings;
  const names =
    bindings !== undefined && ts.isNamedImports(bindings)
      ? bindings.elements.map((element) => (element.propertyName ?? element.name).text)
      : [];
  const random = names.filter((name) => RANDOM_EXPORTS.has(name));
  return random.length === 0 ? undefined : `import ${random.join(', ')} from ${from}`;
}

/**
 * Every place `source` reads the time (`Date.now`, an argument-less `new Date()`, `Date()`,
 * `performance.now`, `process.hrtime`, ...), draws randomness (`Math.random`, `crypto.randomUUID`
 * and the other random functions of node:crypto, also imported by name) or arms a timer
 * (`setTimeout`, `setInterval`, `setImmediate`, also through `globalThis`, or node:timers).
 * `new Date(ms)` is not a use: it reads no clock. Comments, strings and types never count.
 */
export function ambientUses(source: string, fileName = 'file.ts'): AmbientUse[] {
  const file = parse(source, fileName);
  const uses: AmbientUse[] = [];
  walk(file, (node) => {
    const what = ambientUseAt(node);
    if (what !== undefined) uses.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, what });
  });
  return uses;
}

/** Every `.ts` file under `dir` (relative to `root`, `/`-separated), node_modules skipped. */
export function typeScriptFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** One module-level declaration that holds state of its own. */
export interface ModuleState {
  /** 1-based line. */
  line: number;
  /** The declared name and why it counts, e.g. `memo: new BoundedMemo()`. */
  what: string;
}

/** Constructors whose instances hold nothing of their own: a weak map's entries live and die with their key objects. */
const STATELESS_CONSTRUCTORS = new Set(['WeakMap', 'WeakSet', 'RegExp', 'TextEncoder', 'TextDecoder']);

/** Collections that are constant when their declared type is the readonly view (`ReadonlyMap<...>`, `ReadonlySet<...>`). */
const READONLY_VIEWS: Record<string, string> = { Map: 'ReadonlyMap', Set: 'ReadonlySet' };

/** Factories that hand out a cache: a module-level call to one keeps state for the whole process. */
const CACHE_FACTORY = /memo|cache|pool/i;

/** Why the module-level declaration `declaration` (of a `let`/`var` list when `mutable`) holds state, or undefined when it does not. */
function stateOf(declaration: ts.VariableDeclaration, mutable: boolean): string | undefined {
  const name = declaration.name.getText();
  const init = declaration.initializer;
  if (mutable) return `${name}: a module-level ${declaration.parent.flags & ts.NodeFlags.Let ? 'let' : 'var'}`;
  if (init === undefined) return undefined;
  if (ts.isNewExpression(init)) {
    const built = init.expression.getText();
    if (STATELESS_CONSTRUCTORS.has(built)) return undefined;
    const view = READONLY_VIEWS[built];
    if (view !== undefined && declaration.type !== undefined && declaration.type.getText().startsWith(`${view}<`))
      return undefined;
    return `${name}: new ${built}()${view === undefined ? '' : ` (declare it ${view}<...> if it is constant)`}`;
  }
  if (ts.isCallExpression(init) && CACHE_FACTORY.test(init.expression.getText()))
    return `${name}: ${init.expression.getText()}()`;
  if (
    (ts.isArrayLiteralExpression(init) && init.elements.length === 0) ||
    (ts.isObjectLiteralExpression(init) && init.properties.length === 0)
  )
    return `${name}: an empty ${ts.isArrayLiteralExpression(init) ? 'array' : 'object'} to fill`;
  return undefined;
}

/**
 * The module-level declarations of `source` that hold process-wide mutable state: a `let` or
 * `var`; a `const` built with `new` (a memo, a pool, a `Map` or `Set` not declared as its
 * readonly view), except weak maps and sets, whose entries belong to their key objects; a
 * `const` a cache factory (`...Memo()`, `...Cache()`, `...Pool()`) returns; an empty array or
 * object literal (a container to fill). Declarations inside functions and classes are not module
 * level and never count. What this cannot see: a non-empty literal that is mutated later.
 */
export function moduleState(source: string, fileName = 'file.ts'): ModuleState[] {
  const file = parse(source, fileName);
  const found: ModuleState[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const mutable = (statement.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
    for (const declaration of statement.declarationList.declarations) {
      const what = stateOf(declaration, mutable);
      if (what !== undefined)
        found.push({ line: file.getLineAndCharacterOfPosition(declaration.getStart(file)).line + 1, what });
    }
  }
  return found;
}
